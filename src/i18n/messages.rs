//! Every sentence the component shows: its id, what it is for, and its English text, which
//! is compiled in as the fallback of every language (shown while another language's catalogue
//! loads). The other catalogues (`js/i18n/<tag>.js`) are a line `Id=text` per message, keyed by
//! these ids in any order; a test checks that each has every message once, no other, and the
//! English placeholders.
//!
//! A message that counts something is written as plural forms, `one:…|other:…`, one per CLDR
//! category of the language (Arabic has six, Polish three, Japanese only `other`), plus exact
//! matches such as `=1:毎日` where a language wants them ([`super::plural`]).

/// Declares [`Msg`], [`Msg::IDS`] and [`Msg::ENGLISH`] from one list, so an id, its variant
/// and its English text never disagree.
macro_rules! messages {
    ($($(#[$doc:meta])* $name:ident = $english:literal,)*) => {
        /// A translatable sentence or label. `{0}`, `{1}` mark where [`super::fill`] inserts
        /// values.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[repr(u8)]
        pub enum Msg {
            $($(#[$doc])* $name,)*
        }

        impl Msg {
            /// Every id as catalogues spell it, in declaration order (`IDS[msg as usize]`).
            pub const IDS: &[&str] = &[$(stringify!($name),)*];
            /// Every English text, in declaration order (`ENGLISH[msg as usize]`).
            pub const ENGLISH: &[&str] = &[$($english,)*];
        }
    };
}

messages! {
    // Field labels.
    /// Cardholder name label.
    LabelName = "Name on card",
    /// Card number label.
    LabelNumber = "Card number",
    /// Expiry label.
    LabelExpiry = "Expiry date (MM / YY)",
    /// Security code label.
    LabelCvc = "Security code",
    /// Country label.
    LabelCountry = "Country",
    /// E-mail label.
    LabelEmail = "Email",
    /// Phone label.
    LabelPhone = "Phone",
    /// Street address label.
    LabelAddress = "Address",
    /// City label.
    LabelCity = "City",
    /// State or region label.
    LabelState = "State / region",
    /// Postal code label.
    LabelPostalCode = "Postal code",
    // Form.
    /// Legend of the saved-card list.
    SavedCards = "Saved cards",
    /// The "new card" choice in the saved-card list.
    NewCard = "Use a new card",
    /// `{0}`: expiry `MM/YY` of a saved card.
    SavedCardExpires = "expires {0}",
    /// Save-card opt-in.
    SaveCard = "Save this card for future payments",
    /// `{0}`: the amount.
    Pay = "Pay {0}",
    /// Button of a subscription session.
    Subscribe = "Subscribe",
    /// Button while the payment is being sent.
    Processing = "Processing…",
    /// While the session loads.
    Loading = "Loading…",
    /// The session could not be loaded.
    LoadFailed = "This checkout could not be loaded. Please refresh the page.",
    /// Live-region summary on submit; `{0}`: the labels of the fields at fault.
    FixFields = "Please check: {0}.",
    /// Empty choice of the country list.
    ChooseCountry = "Choose a country",
    // Card errors (see `ui::validate`).
    /// Empty number.
    NumberRequired = "Enter your card number.",
    /// Non-digits in the number.
    InvalidNumber = "The card number may contain only digits.",
    /// Too few digits.
    IncompleteNumber = "Your card number is incomplete.",
    /// Too many digits.
    NumberTooLong = "Your card number has too many digits.",
    /// Luhn failure.
    LuhnFailed = "Your card number is invalid.",
    /// Empty expiry.
    ExpiryRequired = "Enter the expiry date.",
    /// Expiry not `MM / YY`.
    InvalidExpiry = "Enter the expiry date as MM / YY.",
    /// Month out of range.
    InvalidMonth = "The expiry month must be between 01 and 12.",
    /// Year malformed.
    InvalidYear = "The expiry year is invalid.",
    /// Card expired.
    Expired = "Your card has expired.",
    /// Expiry more than twenty years ahead.
    ExpiryTooFar = "The expiry date is too far in the future.",
    /// Empty CVC.
    CvcRequired = "Enter the security code.",
    /// Non-digits in the CVC.
    InvalidCvc = "The security code may contain only digits.",
    /// `{0}`: the one allowed digit count.
    CvcLength = "The security code must have {0} digits.",
    /// CVC must have three or four digits.
    CvcLengthEither = "The security code must have 3 or 4 digits.",
    /// Empty name.
    NameRequired = "Enter the name on the card.",
    /// `{0}`: the limit in characters.
    NameTooLong = "The name may have at most {0} characters.",
    /// Control characters in the name.
    InvalidName = "The name contains characters that are not allowed.",
    /// A card number typed as the name.
    NameContainsNumber = "The name must not contain a card number.",
    // Billing errors.
    /// A required billing field is empty.
    FieldRequired = "This field is required.",
    /// Malformed e-mail address.
    InvalidEmail = "Enter a valid email address.",
    /// Malformed phone number.
    InvalidPhone = "Enter a valid phone number.",
    // Declines.
    /// Issuer refused without a reason.
    DeclineDoNotHonour = "Your card was declined. Please use another card or contact your bank.",
    /// Insufficient funds.
    DeclineInsufficientFunds = "Your card has insufficient funds.",
    /// Card expired (issuer says).
    DeclineExpiredCard = "Your card has expired.",
    /// Lost or stolen card.
    DeclineLostOrStolen = "Your card was declined. Please use another card.",
    /// Issuer unreachable.
    DeclineIssuerUnavailable = "Your bank could not be reached. Please try again in a few minutes.",
    /// Risk rules refused.
    DeclineRiskRejected = "This payment was declined for security reasons.",
    /// 3D Secure failed.
    DeclineAuthenticationFailed =
        "Your card could not be verified. Please try again or use another card.",
    /// Any other decline.
    DeclineOther = "Your card was declined.",
    // Request errors.
    /// The server could not be reached.
    NetworkError = "The payment server could not be reached. Check your connection and try again.",
    /// The server failed or answered nonsense.
    ServerError = "Something went wrong. Please try again.",
    /// Every refusal before the gateway (a block list, a card-testing rule, a rate limit, a
    /// proof of work not given): one neutral text that neither names the rule nor sends the
    /// shopper to their bank.
    CardRefused = "This card can't be used for this payment right now. Try another card or contact the shop.",
    /// Another payment of this order is still under way (409 `payment_in_progress`).
    PaymentInProgress = "A payment for this order is already under way. Please wait a moment and try again.",
    /// The order has been paid already (409 `session_paid`).
    SessionPaid = "This order has already been paid.",
    // 3-D Secure on the shop's page.
    /// The pay button while the bank's check runs in the dialog.
    WaitingForBank = "Waiting for your bank…",
    /// The shopper closed the bank's dialog.
    ThreeDsCancelled = "The check with your bank was cancelled. You can pay again.",
    /// The dialog's title (its accessible name).
    ThreeDsTitle = "Confirm the payment with your bank",
    /// The dialog's close button.
    ThreeDsClose = "Close",
    /// The title of the bank's frame inside the dialog.
    ThreeDsFrameTitle = "Your bank's page",
    /// The link that opens the bank's page in the whole window instead.
    ThreeDsOpenInstead = "Open your bank's page instead",
    // Result view.
    /// Heading: paid.
    ResultPaid = "Payment successful",
    /// `{0}`: the amount.
    ResultPaidDetail = "Your payment of {0} was successful.",
    /// Heading: declined.
    ResultDeclined = "Payment declined",
    /// Heading: pending.
    ResultPending = "Confirming your payment…",
    /// Body: pending.
    ResultPendingDetail = "This can take a moment. You can keep this page open.",
    /// Body: still pending once the form stopped asking (what happens next).
    ResultPendingLong = "Your bank has not answered yet. Please do not pay again: if the payment goes through, the shop will confirm your order; if it does not, nothing is taken.",
    /// Heading: needs review.
    ResultReview = "Payment under review",
    /// Body: needs review.
    ResultReviewDetail = "We could not confirm your payment yet. The shop will contact you.",
    /// Heading: failed.
    ResultFailed = "Payment failed",
    /// Body: failed.
    ResultFailedDetail = "The payment could not be completed.",
    /// Heading: voided.
    ResultVoided = "Payment cancelled",
    /// Heading: refunded.
    ResultRefunded = "Payment refunded",
    /// Button: poll again.
    CheckAgain = "Check again",
    // Plan terms.
    /// Interval of `{0}` days (plural: one is "every day").
    EveryDays = "one:every day|other:every {0} days",
    /// Interval of `{0}` weeks (plural).
    EveryWeeks = "one:every week|other:every {0} weeks",
    /// Interval of `{0}` months (plural).
    EveryMonths = "one:every month|other:every {0} months",
    /// `{0}` amount, `{1}` interval.
    PriceEvery = "{0} {1}",
    /// `{0}` days of trial (plural).
    TrialDays = "one:{0}-day free trial|other:{0}-day free trial",
    /// `{0}` percent off the first `{1}` payments (plural by `{1}`: one is "the first payment").
    DiscountFirstN = "one:{0}% off the first payment|other:{0}% off the first {1} payments",
    /// `{0}` payments in all (plural).
    CyclesTotal = "one:{0} payment in total|other:{0} payments in total",
    /// No end date.
    UntilCancelled = "Until cancelled",
    /// `{0}`: amount charged now.
    DueToday = "Due today: {0}",
    // Subscription management.
    /// Heading of the management view.
    SubscriptionsTitle = "Your subscriptions",
    /// No subscriptions.
    SubscriptionsEmpty = "You have no subscriptions.",
    /// Status: active.
    StatusActive = "Active",
    /// Status: paused.
    StatusPaused = "Paused",
    /// Status: cancelled.
    StatusCancelled = "Cancelled",
    /// Status: expired.
    StatusExpired = "Ended",
    /// `{0}`: date.
    NextPayment = "Next payment: {0}",
    /// `{0}` of `{1}` payments made.
    CyclesPaidOf = "{0} of {1} payments made",
    /// `{0}` payments made (plural).
    CyclesPaid = "one:{0} payment made|other:{0} payments made",
    /// Button: pause.
    Pause = "Pause",
    /// Button: resume.
    Resume = "Resume",
    /// Button: cancel the subscription.
    CancelSubscription = "Cancel subscription",
    /// Confirmation question: pause.
    ConfirmPause = "Pause this subscription? No payments are taken until you resume it.",
    /// Confirmation question: resume.
    ConfirmResume = "Resume this subscription? Payments restart on the next billing date.",
    /// Confirmation question: cancel.
    ConfirmCancel = "Cancel this subscription? This cannot be undone.",
    /// Button: confirm.
    Confirm = "Confirm",
    /// Button: back out of the confirmation.
    GoBack = "Go back",
    /// Heading of the charge history.
    History = "Payment history",
    /// No charges yet.
    HistoryEmpty = "No payments yet.",
    /// Charge went through.
    ChargePaid = "Paid",
    /// Charge failed.
    ChargeFailed = "Failed",
    /// Column: payment number.
    ColPayment = "Payment",
    /// Column: date.
    ColDate = "Date",
    /// Column: amount.
    ColAmount = "Amount",
    /// Column: status.
    ColStatus = "Status",
    /// A pause/resume/cancel request failed.
    ActionFailed = "The change could not be made. Please try again.",
    /// A pause/resume/cancel request succeeded.
    SubscriptionUpdated = "Subscription updated.",
    // The frame.
    /// Title of the card form's frame (what a screen reader announces for it).
    FrameTitle = "Card payment",
}

impl Msg {
    /// Number of messages.
    pub const COUNT: usize = Msg::IDS.len();
}
