-- `subscription.renewed` means a later cycle: the first cycle's charge is the sign-up, which
-- `subscription.created` and the first payment's `payment.captured` (or `.authorized`) already
-- report. A shop extending a membership on each renewal and crediting each captured payment
-- counted the first month twice. A failed cycle still sends `subscription.payment_failed`,
-- whichever it is. The trigger functions stay; only when they fire changes.
DROP TRIGGER subscription_cycle_events ON subscription_cycles;
DROP TRIGGER subscription_cycle_retried ON subscription_cycles;

CREATE TRIGGER subscription_cycle_events AFTER INSERT ON subscription_cycles
FOR EACH ROW WHEN (NEW.cycle > 1 OR NEW.status <> 'succeeded')
EXECUTE FUNCTION subscription_cycle_events();

CREATE TRIGGER subscription_cycle_retried AFTER UPDATE OF status ON subscription_cycles
FOR EACH ROW WHEN (NEW.status = 'succeeded' AND OLD.status <> 'succeeded' AND NEW.cycle > 1)
EXECUTE FUNCTION subscription_cycle_retried();
