// German catalogue of the checkout component: one line per message of src/i18n/messages.rs,
// in declaration order. Not in the wasm: js/catalogues.js imports it the first time the
// component shows German (src/i18n/catalogues.rs).
export default `Name auf der Karte
Kartennummer
Ablaufdatum (MM / JJ)
Prüfnummer
Land
E-Mail
Telefon
Adresse
Ort
Bundesland / Region
Postleitzahl
Gespeicherte Karten
Neue Karte verwenden
gültig bis {0}
Karte für künftige Zahlungen speichern
{0} bezahlen
Abonnieren
Wird verarbeitet…
Wird geladen…
Dieser Bezahlvorgang konnte nicht geladen werden. Bitte laden Sie die Seite neu.
Bitte prüfen: {0}.
Land auswählen
Geben Sie Ihre Kartennummer ein.
Die Kartennummer darf nur Ziffern enthalten.
Ihre Kartennummer ist unvollständig.
Ihre Kartennummer hat zu viele Ziffern.
Ihre Kartennummer ist ungültig.
Geben Sie das Ablaufdatum ein.
Geben Sie das Ablaufdatum als MM / JJ ein.
Der Ablaufmonat muss zwischen 01 und 12 liegen.
Das Ablaufjahr ist ungültig.
Ihre Karte ist abgelaufen.
Das Ablaufdatum liegt zu weit in der Zukunft.
Geben Sie die Prüfnummer ein.
Die Prüfnummer darf nur Ziffern enthalten.
Die Prüfnummer muss {0} Ziffern haben.
Die Prüfnummer muss 3 oder 4 Ziffern haben.
Geben Sie den Namen auf der Karte ein.
Der Name darf höchstens {0} Zeichen haben.
Der Name enthält unzulässige Zeichen.
Der Name darf keine Kartennummer enthalten.
Dieses Feld ist erforderlich.
Geben Sie eine gültige E-Mail-Adresse ein.
Geben Sie eine gültige Telefonnummer ein.
Ihre Karte wurde abgelehnt. Bitte verwenden Sie eine andere Karte oder wenden Sie sich an Ihre Bank.
Ihre Karte ist nicht ausreichend gedeckt.
Ihre Karte ist abgelaufen.
Ihre Karte wurde abgelehnt. Bitte verwenden Sie eine andere Karte.
Ihre Bank ist nicht erreichbar. Bitte versuchen Sie es in einigen Minuten erneut.
Diese Zahlung wurde aus Sicherheitsgründen abgelehnt.
Ihre Karte konnte nicht bestätigt werden. Bitte versuchen Sie es erneut oder verwenden Sie eine andere Karte.
Ihre Karte wurde abgelehnt.
Der Zahlungsserver ist nicht erreichbar. Prüfen Sie Ihre Verbindung und versuchen Sie es erneut.
Etwas ist schiefgelaufen. Bitte versuchen Sie es erneut.
Zu viele Versuche. Bitte warten Sie einen Moment.
Zahlung erfolgreich
Ihre Zahlung über {0} war erfolgreich.
Zahlung abgelehnt
Zahlung wird bestätigt…
Das kann einen Moment dauern. Sie können diese Seite geöffnet lassen.
Zahlung wird geprüft
Wir konnten Ihre Zahlung noch nicht bestätigen. Der Shop meldet sich bei Ihnen.
Zahlung fehlgeschlagen
Die Zahlung konnte nicht abgeschlossen werden.
Zahlung storniert
Zahlung erstattet
Erneut prüfen
täglich
alle {0} Tage
wöchentlich
alle {0} Wochen
monatlich
alle {0} Monate
{0} {1}
{0} Tage kostenlos testen
{0} % Rabatt auf die erste Zahlung
{0} % Rabatt auf die ersten {1} Zahlungen
{0} Zahlungen insgesamt
Bis zur Kündigung
Heute fällig: {0}
Ihre Abonnements
Sie haben keine Abonnements.
Aktiv
Pausiert
Gekündigt
Beendet
Nächste Zahlung: {0}
{0} von {1} Zahlungen geleistet
{0} Zahlungen geleistet
Pausieren
Fortsetzen
Abonnement kündigen
Dieses Abonnement pausieren? Bis zur Fortsetzung werden keine Zahlungen eingezogen.
Dieses Abonnement fortsetzen? Die Zahlungen beginnen wieder zum nächsten Abrechnungstermin.
Dieses Abonnement kündigen? Dies kann nicht rückgängig gemacht werden.
Bestätigen
Zurück
Zahlungsverlauf
Noch keine Zahlungen.
Bezahlt
Fehlgeschlagen
Zahlung
Datum
Betrag
Status
Die Änderung konnte nicht vorgenommen werden. Bitte versuchen Sie es erneut.
Abonnement aktualisiert.
Kartenzahlung`;
