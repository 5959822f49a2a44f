"""Runs README.md's Python events snippet (written for Flask) on one delivery, with the real
standardwebhooks package and small stand-ins for what it takes from Flask: `Flask(__name__)`
with its `post(rule)` decorator, and `request` (`get_data()`, `headers`). The snippet's own
`mark_paid` is replaced by one that records its calls. Prints a JSON report: the routes the
snippet registered, then either the view's answer or the class of what it raised, and the
`mark_paid` calls.

Usage: python events_snippet.py SNIPPET.py REQUEST.json   (REQUEST: {"body": str,
"headers": {name: value}}; the secret in CHECKOUT_WEBHOOK_SECRET, as the snippet reads it)
"""

import json
import sys
import types


class Flask:
    """Flask's application object, as far as the snippet uses it."""

    def __init__(self, import_name):
        self.import_name = import_name
        self.routes = {}

    def post(self, rule):
        def register(view):
            self.routes[rule] = view
            return view

        return register


class Request:
    """Flask's `request` for one delivery: the raw body and the headers."""

    def __init__(self, body, headers):
        self._body = body.encode()
        self.headers = headers

    def get_data(self):
        return self._body


def main():
    snippet_path, request_path = sys.argv[1:3]
    with open(request_path, encoding="utf-8") as file:
        delivery = json.load(file)
    flask = types.ModuleType("flask")
    flask.Flask = Flask
    flask.request = Request(delivery["body"], delivery["headers"])
    sys.modules["flask"] = flask

    with open(snippet_path, encoding="utf-8") as file:
        code = compile(file.read(), "README.md's events snippet", "exec")
    namespace = {"__name__": "readme_events_snippet"}
    exec(code, namespace)
    marked = []
    namespace["mark_paid"] = lambda reference, event_id: marked.append([reference, event_id])
    apps = [value for value in namespace.values() if isinstance(value, Flask)]
    if len(apps) != 1:
        sys.exit(f"the snippet made {len(apps)} Flask apps, not one")
    report = {"routes": list(apps[0].routes), "marked": marked}
    if len(apps[0].routes) != 1:
        sys.exit(f"the snippet registered {list(apps[0].routes)}, not one route")
    (view,) = apps[0].routes.values()
    try:
        report["answer"] = list(view())
    except Exception as error:  # what Flask would turn into a 500: the report says which
        report["raised"] = type(error).__name__
    print(json.dumps(report))


main()
