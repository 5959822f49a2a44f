//! The hosted page's and the receipt's own texts in the card form's 13 languages (the form's
//! labels come from its catalogue, `checkout::i18n`, which the wasm carries; these stay on the
//! server, so the bundle does not grow).

use checkout::i18n::Locale;

/// One text of the hosted page or the receipt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Text {
    /// The language switcher's name.
    Language,
    /// The quantity field.
    Quantity,
    /// The bounds of a payer-chosen amount: `{0}` the minimum, `{1}` the maximum.
    AmountBetween,
    /// After an optional field's label.
    Optional,
    /// The payer's own reference (an order or invoice number).
    PayerReference,
    /// The heading of a link that cannot be paid.
    Unavailable,
    /// No link has this address.
    NotFound,
    /// The shop turned the link off.
    Inactive,
    /// The link's expiry has passed.
    Expired,
    /// A one-payment link paid, or a limited one at its limit.
    UsedUp,
    /// The receipt's heading.
    Receipt,
    /// Before the shop's name on the receipt.
    PaidTo,
    /// The card's brand and last four.
    Card,
    /// The payment's id.
    PaymentId,
    /// The shop's reference.
    SellerReference,
    /// The print button.
    Print,
    /// No receipt has this address.
    NoReceipt,
    /// Under the receipt: its address shows it again.
    KeepReceipt,
}

impl Text {
    /// This text in `locale`.
    pub fn of(self, locale: Locale) -> &'static str {
        in_language(self.all(), locale)
    }

    /// This text in every language, in [`Locale::ALL`] order.
    fn all(self) -> [&'static str; 13] {
        match self {
            Self::Language => [
                "Language",
                "Sprache",
                "Langue",
                "Idioma",
                "Lingua",
                "Taal",
                "Idioma",
                "Język",
                "Språk",
                "言語",
                "语言",
                "اللغة",
                "שפה",
            ],
            Self::Quantity => [
                "Quantity",
                "Menge",
                "Quantité",
                "Cantidad",
                "Quantità",
                "Aantal",
                "Quantidade",
                "Ilość",
                "Antal",
                "数量",
                "数量",
                "الكمية",
                "כמות",
            ],
            Self::AmountBetween => [
                "Between {0} and {1}",
                "Zwischen {0} und {1}",
                "Entre {0} et {1}",
                "Entre {0} y {1}",
                "Tra {0} e {1}",
                "Tussen {0} en {1}",
                "Entre {0} e {1}",
                "Od {0} do {1}",
                "Mellan {0} och {1}",
                "{0}～{1}",
                "{0} 至 {1}",
                "بين {0} و{1}",
                "בין {0} ל-{1}",
            ],
            Self::Optional => [
                "(optional)",
                "(optional)",
                "(facultatif)",
                "(opcional)",
                "(facoltativo)",
                "(optioneel)",
                "(opcional)",
                "(opcjonalnie)",
                "(valfritt)",
                "(任意)",
                "(可选)",
                "(اختياري)",
                "(רשות)",
            ],
            Self::PayerReference => [
                "Your reference",
                "Ihre Referenz",
                "Votre référence",
                "Su referencia",
                "Il tuo riferimento",
                "Uw referentie",
                "A sua referência",
                "Twój numer referencyjny",
                "Er referens",
                "お客様の参照番号",
                "您的参考号",
                "مرجعك",
                "האסמכתא שלך",
            ],
            Self::Unavailable => [
                "This payment link cannot be paid",
                "Dieser Zahlungslink kann nicht bezahlt werden",
                "Ce lien de paiement ne peut pas être payé",
                "Este enlace de pago no se puede pagar",
                "Questo link di pagamento non può essere pagato",
                "Deze betaallink kan niet worden betaald",
                "Este link de pagamento não pode ser pago",
                "Tego linku płatności nie można opłacić",
                "Den här betallänken kan inte betalas",
                "この支払いリンクではお支払いできません",
                "无法通过此付款链接付款",
                "لا يمكن الدفع عبر رابط الدفع هذا",
                "לא ניתן לשלם בקישור תשלום זה",
            ],
            Self::NotFound => [
                "There is no payment link at this address. Check the link you were sent.",
                "Unter dieser Adresse gibt es keinen Zahlungslink. Prüfen Sie den Link, den Sie \
                 erhalten haben.",
                "Il n'y a aucun lien de paiement à cette adresse. Vérifiez le lien que vous avez \
                 reçu.",
                "No hay ningún enlace de pago en esta dirección. Compruebe el enlace que recibió.",
                "Non esiste alcun link di pagamento a questo indirizzo. Controlla il link che hai \
                 ricevuto.",
                "Er is geen betaallink op dit adres. Controleer de link die u hebt ontvangen.",
                "Não existe nenhum link de pagamento neste endereço. Verifique o link que \
                 recebeu.",
                "Pod tym adresem nie ma linku płatności. Sprawdź otrzymany link.",
                "Det finns ingen betallänk på den här adressen. Kontrollera länken du fick.",
                "このアドレスに支払いリンクはありません。受け取ったリンクをご確認ください。",
                "此地址没有付款链接。请检查您收到的链接。",
                "لا يوجد رابط دفع على هذا العنوان. تحقق من الرابط الذي تلقيته.",
                "אין קישור תשלום בכתובת זו. בדקו את הקישור שקיבלתם.",
            ],
            Self::Inactive => [
                "The seller has turned this payment link off. Ask them for a new one.",
                "Der Verkäufer hat diesen Zahlungslink deaktiviert. Bitten Sie ihn um einen neuen.",
                "Le vendeur a désactivé ce lien de paiement. Demandez-lui-en un nouveau.",
                "El vendedor ha desactivado este enlace de pago. Pídale uno nuevo.",
                "Il venditore ha disattivato questo link di pagamento. Chiedigliene uno nuovo.",
                "De verkoper heeft deze betaallink uitgeschakeld. Vraag om een nieuwe.",
                "O vendedor desativou este link de pagamento. Peça-lhe um novo.",
                "Sprzedawca wyłączył ten link płatności. Poproś o nowy.",
                "Säljaren har stängt av den här betallänken. Be om en ny.",
                "販売者がこの支払いリンクを無効にしました。新しいリンクを依頼してください。",
                "卖家已停用此付款链接。请向卖家索取新链接。",
                "أوقف البائع رابط الدفع هذا. اطلب منه رابطًا جديدًا.",
                "המוכר השבית את קישור התשלום הזה. בקשו ממנו קישור חדש.",
            ],
            Self::Expired => [
                "This payment link has expired. Ask the seller for a new one.",
                "Dieser Zahlungslink ist abgelaufen. Bitten Sie den Verkäufer um einen neuen.",
                "Ce lien de paiement a expiré. Demandez-en un nouveau au vendeur.",
                "Este enlace de pago ha caducado. Pida uno nuevo al vendedor.",
                "Questo link di pagamento è scaduto. Chiedine uno nuovo al venditore.",
                "Deze betaallink is verlopen. Vraag de verkoper om een nieuwe.",
                "Este link de pagamento expirou. Peça um novo ao vendedor.",
                "Ten link płatności wygasł. Poproś sprzedawcę o nowy.",
                "Den här betallänken har gått ut. Be säljaren om en ny.",
                "この支払いリンクは有効期限が切れています。販売者に新しいリンクを依頼してください。",
                "此付款链接已过期。请向卖家索取新链接。",
                "انتهت صلاحية رابط الدفع هذا. اطلب من البائع رابطًا جديدًا.",
                "תוקף קישור התשלום הזה פג. בקשו מהמוכר קישור חדש.",
            ],
            Self::UsedUp => [
                "This payment link has already been paid as often as it can be.",
                "Dieser Zahlungslink wurde bereits so oft bezahlt wie möglich.",
                "Ce lien de paiement a déjà été payé autant de fois que possible.",
                "Este enlace de pago ya se ha pagado todas las veces posibles.",
                "Questo link di pagamento è già stato pagato il numero massimo di volte.",
                "Deze betaallink is al zo vaak betaald als mogelijk is.",
                "Este link de pagamento já foi pago o número máximo de vezes.",
                "Ten link płatności został już opłacony maksymalną liczbę razy.",
                "Den här betallänken har redan betalats så många gånger som möjligt.",
                "この支払いリンクは、すでに上限回数まで支払われています。",
                "此付款链接的付款次数已达上限。",
                "تم الدفع عبر رابط الدفع هذا بالحد الأقصى من المرات.",
                "קישור התשלום הזה כבר שולם את מספר הפעמים המרבי.",
            ],
            Self::Receipt => [
                "Receipt",
                "Beleg",
                "Reçu",
                "Recibo",
                "Ricevuta",
                "Betalingsbewijs",
                "Recibo",
                "Potwierdzenie",
                "Kvitto",
                "領収書",
                "收据",
                "إيصال",
                "קבלה",
            ],
            Self::PaidTo => [
                "Paid to",
                "Bezahlt an",
                "Payé à",
                "Pagado a",
                "Pagato a",
                "Betaald aan",
                "Pago a",
                "Zapłacono na rzecz",
                "Betalat till",
                "支払先",
                "收款方",
                "مدفوع إلى",
                "שולם ל",
            ],
            Self::Card => [
                "Card",
                "Karte",
                "Carte",
                "Tarjeta",
                "Carta",
                "Kaart",
                "Cartão",
                "Karta",
                "Kort",
                "カード",
                "银行卡",
                "البطاقة",
                "כרטיס",
            ],
            Self::PaymentId => [
                "Payment ID",
                "Zahlungs-ID",
                "Identifiant du paiement",
                "ID del pago",
                "ID pagamento",
                "Betalings-ID",
                "ID do pagamento",
                "Identyfikator płatności",
                "Betalnings-ID",
                "支払いID",
                "付款编号",
                "معرّف الدفعة",
                "מזהה תשלום",
            ],
            Self::SellerReference => [
                "Seller's reference",
                "Referenz des Verkäufers",
                "Référence du vendeur",
                "Referencia del vendedor",
                "Riferimento del venditore",
                "Referentie van de verkoper",
                "Referência do vendedor",
                "Numer referencyjny sprzedawcy",
                "Säljarens referens",
                "販売者の参照番号",
                "卖家参考号",
                "مرجع البائع",
                "אסמכתת המוכר",
            ],
            Self::Print => [
                "Print this receipt",
                "Beleg drucken",
                "Imprimer ce reçu",
                "Imprimir este recibo",
                "Stampa questa ricevuta",
                "Dit betalingsbewijs afdrukken",
                "Imprimir este recibo",
                "Drukuj potwierdzenie",
                "Skriv ut kvittot",
                "領収書を印刷",
                "打印收据",
                "اطبع الإيصال",
                "הדפסת הקבלה",
            ],
            Self::NoReceipt => [
                "There is no receipt at this address.",
                "Unter dieser Adresse gibt es keinen Beleg.",
                "Il n'y a aucun reçu à cette adresse.",
                "No hay ningún recibo en esta dirección.",
                "Non esiste alcuna ricevuta a questo indirizzo.",
                "Er is geen betalingsbewijs op dit adres.",
                "Não existe nenhum recibo neste endereço.",
                "Pod tym adresem nie ma potwierdzenia.",
                "Det finns inget kvitto på den här adressen.",
                "このアドレスに領収書はありません。",
                "此地址没有收据。",
                "لا يوجد إيصال على هذا العنوان.",
                "אין קבלה בכתובת זו.",
            ],
            Self::KeepReceipt => [
                "Keep this page's address to see this receipt again.",
                "Speichern Sie die Adresse dieser Seite, um den Beleg erneut aufzurufen.",
                "Conservez l'adresse de cette page pour revoir ce reçu.",
                "Guarde la dirección de esta página para volver a ver este recibo.",
                "Conserva l'indirizzo di questa pagina per rivedere la ricevuta.",
                "Bewaar het adres van deze pagina om dit betalingsbewijs later terug te zien.",
                "Guarde o endereço desta página para voltar a ver este recibo.",
                "Zachowaj adres tej strony, aby ponownie zobaczyć potwierdzenie.",
                "Spara sidans adress för att se kvittot igen.",
                "このページのアドレスを保存すると、領収書をもう一度表示できます。",
                "保存此页面的地址，以便再次查看此收据。",
                "احتفظ بعنوان هذه الصفحة لعرض هذا الإيصال مرة أخرى.",
                "שמרו את כתובת הדף כדי לראות את הקבלה שוב.",
            ],
        }
    }
}

/// The text of `locale` among `all`, in [`Locale::ALL`] order.
pub fn in_language(all: [&'static str; 13], locale: Locale) -> &'static str {
    let row = Locale::ALL
        .iter()
        .position(|l| *l == locale)
        .unwrap_or_default();
    all[row]
}

/// Each language's name in itself, for the switcher, in [`Locale::ALL`] order.
pub const NATIVE_NAMES: [&str; 13] = [
    "English",
    "Deutsch",
    "Français",
    "Español",
    "Italiano",
    "Nederlands",
    "Português",
    "Polski",
    "Svenska",
    "日本語",
    "中文",
    "العربية",
    "עברית",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_text_is_written_in_every_language() {
        for text in [
            Text::AmountBetween,
            Text::Receipt,
            Text::UsedUp,
            Text::KeepReceipt,
        ] {
            for locale in Locale::ALL {
                assert!(!text.of(locale).is_empty(), "{text:?} in {locale:?}");
            }
        }
        assert_eq!(Text::Receipt.of(Locale::Ar), "إيصال");
        assert_eq!(Text::Receipt.of(Locale::En), "Receipt");
        assert!(Text::AmountBetween.of(Locale::De).contains("{1}"));
    }
}
