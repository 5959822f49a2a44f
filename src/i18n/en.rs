//! English catalogue: one line per [`super::Msg`], in declaration order.

pub(super) const TEXT: &str = "\
Name on card
Card number
Expiry date (MM / YY)
Security code
Country
Email
Phone
Address
City
State / region
Postal code
Saved cards
Use a new card
expires {0}
Save this card for future payments
Pay {0}
Subscribe
Processing…
Loading…
This checkout could not be loaded. Please refresh the page.
Please check: {0}.
Choose a country
Enter your card number.
The card number may contain only digits.
Your card number is incomplete.
Your card number has too many digits.
Your card number is invalid.
Enter the expiry date.
Enter the expiry date as MM / YY.
The expiry month must be between 01 and 12.
The expiry year is invalid.
Your card has expired.
The expiry date is too far in the future.
Enter the security code.
The security code may contain only digits.
The security code must have {0} digits.
The security code must have 3 or 4 digits.
Enter the name on the card.
The name may have at most {0} characters.
The name contains characters that are not allowed.
The name must not contain a card number.
This field is required.
Enter a valid email address.
Enter a valid phone number.
Your card was declined. Please use another card or contact your bank.
Your card has insufficient funds.
Your card has expired.
Your card was declined. Please use another card.
Your bank could not be reached. Please try again in a few minutes.
This payment was declined for security reasons.
Your card could not be verified. Please try again or use another card.
Your card was declined.
The payment server could not be reached. Check your connection and try again.
Something went wrong. Please try again.
Too many attempts. Please wait a moment and try again.
Payment successful
Your payment of {0} was successful.
Payment declined
Confirming your payment…
This can take a moment. You can keep this page open.
Payment under review
We could not confirm your payment yet. The shop will contact you.
Payment failed
The payment could not be completed.
Payment cancelled
Payment refunded
Check again
every day
every {0} days
every week
every {0} weeks
every month
every {0} months
{0} {1}
{0}-day free trial
{0}% off the first payment
{0}% off the first {1} payments
{0} payments in total
Until cancelled
Due today: {0}
Your subscriptions
You have no subscriptions.
Active
Paused
Cancelled
Ended
Next payment: {0}
{0} of {1} payments made
{0} payments made
Pause
Resume
Cancel subscription
Pause this subscription? No payments are taken until you resume it.
Resume this subscription? Payments restart on the next billing date.
Cancel this subscription? This cannot be undone.
Confirm
Go back
Payment history
No payments yet.
Paid
Failed
Payment
Date
Amount
Status
The change could not be made. Please try again.
Subscription updated.
Card payment";
