//! The ids of every sentence the component shows. A catalogue (`en.rs`, `js/i18n/<tag>.js`)
//! is a line `Id=text` per message, keyed by these ids in any order; a test checks that every
//! catalogue has each of them once, no other, and the English placeholders.

/// Declares [`Msg`] and [`Msg::IDS`] from one list, so an id's name and its variant never
/// disagree.
macro_rules! messages {
    ($($(#[$doc:meta])* $name:ident,)*) => {
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
        }
    };
}

messages! {
    // Field labels.
    /// Cardholder name label.
    LabelName,
    /// Card number label.
    LabelNumber,
    /// Expiry label.
    LabelExpiry,
    /// Security code label.
    LabelCvc,
    /// Country label.
    LabelCountry,
    /// E-mail label.
    LabelEmail,
    /// Phone label.
    LabelPhone,
    /// Street address label.
    LabelAddress,
    /// City label.
    LabelCity,
    /// State or region label.
    LabelState,
    /// Postal code label.
    LabelPostalCode,
    // Form.
    /// Legend of the saved-card list.
    SavedCards,
    /// The "new card" choice in the saved-card list.
    NewCard,
    /// `{0}`: expiry `MM/YY` of a saved card.
    SavedCardExpires,
    /// Save-card opt-in.
    SaveCard,
    /// `{0}`: the amount.
    Pay,
    /// Button of a subscription session.
    Subscribe,
    /// Button while the payment is being sent.
    Processing,
    /// While the session loads.
    Loading,
    /// The session could not be loaded.
    LoadFailed,
    /// Live-region summary on submit; `{0}`: the labels of the fields at fault.
    FixFields,
    /// Empty choice of the country list.
    ChooseCountry,
    // Card errors (see `ui::validate`).
    /// Empty number.
    NumberRequired,
    /// Non-digits in the number.
    InvalidNumber,
    /// Too few digits.
    IncompleteNumber,
    /// Too many digits.
    NumberTooLong,
    /// Luhn failure.
    LuhnFailed,
    /// Empty expiry.
    ExpiryRequired,
    /// Expiry not `MM / YY`.
    InvalidExpiry,
    /// Month out of range.
    InvalidMonth,
    /// Year malformed.
    InvalidYear,
    /// Card expired.
    Expired,
    /// Expiry more than twenty years ahead.
    ExpiryTooFar,
    /// Empty CVC.
    CvcRequired,
    /// Non-digits in the CVC.
    InvalidCvc,
    /// `{0}`: the one allowed digit count.
    CvcLength,
    /// CVC must have three or four digits.
    CvcLengthEither,
    /// Empty name.
    NameRequired,
    /// `{0}`: the limit in characters.
    NameTooLong,
    /// Control characters in the name.
    InvalidName,
    /// A card number typed as the name.
    NameContainsNumber,
    // Billing errors.
    /// A required billing field is empty.
    FieldRequired,
    /// Malformed e-mail address.
    InvalidEmail,
    /// Malformed phone number.
    InvalidPhone,
    // Declines.
    /// Issuer refused without a reason.
    DeclineDoNotHonour,
    /// Insufficient funds.
    DeclineInsufficientFunds,
    /// Card expired (issuer says).
    DeclineExpiredCard,
    /// Lost or stolen card.
    DeclineLostOrStolen,
    /// Issuer unreachable.
    DeclineIssuerUnavailable,
    /// Risk rules refused.
    DeclineRiskRejected,
    /// 3D Secure failed.
    DeclineAuthenticationFailed,
    /// Any other decline.
    DeclineOther,
    // Request errors.
    /// The server could not be reached.
    NetworkError,
    /// The server failed or answered nonsense.
    ServerError,
    /// Too many attempts (429).
    RateLimited,
    // Result view.
    /// Heading: paid.
    ResultPaid,
    /// `{0}`: the amount.
    ResultPaidDetail,
    /// Heading: declined.
    ResultDeclined,
    /// Heading: pending.
    ResultPending,
    /// Body: pending.
    ResultPendingDetail,
    /// Heading: needs review.
    ResultReview,
    /// Body: needs review.
    ResultReviewDetail,
    /// Heading: failed.
    ResultFailed,
    /// Body: failed.
    ResultFailedDetail,
    /// Heading: voided.
    ResultVoided,
    /// Heading: refunded.
    ResultRefunded,
    /// Button: poll again.
    CheckAgain,
    // Plan terms.
    /// Interval of `{0}` days (plural: one is "every day").
    EveryDays,
    /// Interval of `{0}` weeks (plural).
    EveryWeeks,
    /// Interval of `{0}` months (plural).
    EveryMonths,
    /// `{0}` amount, `{1}` interval.
    PriceEvery,
    /// `{0}` days of trial (plural).
    TrialDays,
    /// `{0}` percent off the first `{1}` payments (plural by `{1}`: one is "the first payment").
    DiscountFirstN,
    /// `{0}` payments in all (plural).
    CyclesTotal,
    /// No end date.
    UntilCancelled,
    /// `{0}`: amount charged now.
    DueToday,
    // Subscription management.
    /// Heading of the management view.
    SubscriptionsTitle,
    /// No subscriptions.
    SubscriptionsEmpty,
    /// Status: active.
    StatusActive,
    /// Status: paused.
    StatusPaused,
    /// Status: cancelled.
    StatusCancelled,
    /// Status: expired.
    StatusExpired,
    /// `{0}`: date.
    NextPayment,
    /// `{0}` of `{1}` payments made.
    CyclesPaidOf,
    /// `{0}` payments made (plural).
    CyclesPaid,
    /// Button: pause.
    Pause,
    /// Button: resume.
    Resume,
    /// Button: cancel the subscription.
    CancelSubscription,
    /// Confirmation question: pause.
    ConfirmPause,
    /// Confirmation question: resume.
    ConfirmResume,
    /// Confirmation question: cancel.
    ConfirmCancel,
    /// Button: confirm.
    Confirm,
    /// Button: back out of the confirmation.
    GoBack,
    /// Heading of the charge history.
    History,
    /// No charges yet.
    HistoryEmpty,
    /// Charge went through.
    ChargePaid,
    /// Charge failed.
    ChargeFailed,
    /// Column: payment number.
    ColPayment,
    /// Column: date.
    ColDate,
    /// Column: amount.
    ColAmount,
    /// Column: status.
    ColStatus,
    /// A pause/resume/cancel request failed.
    ActionFailed,
    /// A pause/resume/cancel request succeeded.
    SubscriptionUpdated,
    // The frame.
    /// Title of the card form's frame (what a screen reader announces for it).
    FrameTitle,
}

impl Msg {
    /// Number of messages.
    pub const COUNT: usize = Msg::IDS.len();
}
