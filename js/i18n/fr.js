// French catalogue of the checkout component: one line per message of src/i18n/messages.rs,
// in declaration order. Not in the wasm: js/catalogues.js imports it the first time the
// component shows French (src/i18n/catalogues.rs).
export default `Nom sur la carte
Numéro de carte
Date d’expiration (MM / AA)
Cryptogramme
Pays
E-mail
Téléphone
Adresse
Ville
État / région
Code postal
Cartes enregistrées
Utiliser une nouvelle carte
expire {0}
Enregistrer cette carte pour mes prochains paiements
Payer {0}
S’abonner
Traitement…
Chargement…
Ce paiement n’a pas pu être chargé. Veuillez actualiser la page.
Veuillez vérifier : {0}.
Choisissez un pays
Saisissez votre numéro de carte.
Le numéro de carte ne peut contenir que des chiffres.
Votre numéro de carte est incomplet.
Votre numéro de carte contient trop de chiffres.
Votre numéro de carte n’est pas valide.
Saisissez la date d’expiration.
Saisissez la date d’expiration au format MM / AA.
Le mois d’expiration doit être compris entre 01 et 12.
L’année d’expiration n’est pas valide.
Votre carte a expiré.
La date d’expiration est trop éloignée.
Saisissez le cryptogramme.
Le cryptogramme ne peut contenir que des chiffres.
Le cryptogramme doit comporter {0} chiffres.
Le cryptogramme doit comporter 3 ou 4 chiffres.
Saisissez le nom figurant sur la carte.
Le nom peut comporter au plus {0} caractères.
Le nom contient des caractères non autorisés.
Le nom ne doit pas contenir de numéro de carte.
Ce champ est obligatoire.
Saisissez une adresse e-mail valide.
Saisissez un numéro de téléphone valide.
Votre carte a été refusée. Utilisez une autre carte ou contactez votre banque.
Le solde de votre carte est insuffisant.
Votre carte a expiré.
Votre carte a été refusée. Utilisez une autre carte.
Votre banque est injoignable. Réessayez dans quelques minutes.
Ce paiement a été refusé pour des raisons de sécurité.
Votre carte n’a pas pu être vérifiée. Réessayez ou utilisez une autre carte.
Votre carte a été refusée.
Le serveur de paiement est injoignable. Vérifiez votre connexion et réessayez.
Une erreur est survenue. Veuillez réessayer.
Trop de tentatives. Patientez un instant puis réessayez.
Paiement réussi
Votre paiement de {0} a été effectué.
Paiement refusé
Confirmation du paiement…
Cela peut prendre un moment. Vous pouvez laisser cette page ouverte.
Paiement en cours de vérification
Nous n’avons pas encore pu confirmer votre paiement. La boutique vous contactera.
Échec du paiement
Le paiement n’a pas pu aboutir.
Paiement annulé
Paiement remboursé
Vérifier à nouveau
chaque jour
tous les {0} jours
chaque semaine
toutes les {0} semaines
chaque mois
tous les {0} mois
{0} {1}
Essai gratuit de {0} jours
{0} % de réduction sur le premier paiement
{0} % de réduction sur les {1} premiers paiements
{0} paiements au total
Jusqu’à résiliation
À payer aujourd’hui : {0}
Vos abonnements
Vous n’avez aucun abonnement.
Actif
En pause
Résilié
Terminé
Prochain paiement : {0}
{0} paiements sur {1} effectués
{0} paiements effectués
Mettre en pause
Reprendre
Résilier l’abonnement
Mettre cet abonnement en pause ? Aucun paiement ne sera prélevé avant la reprise.
Reprendre cet abonnement ? Les paiements reprendront à la prochaine échéance.
Résilier cet abonnement ? Cette action est définitive.
Confirmer
Retour
Historique des paiements
Aucun paiement pour l’instant.
Payé
Échoué
Paiement
Date
Montant
Statut
La modification n’a pas pu être effectuée. Veuillez réessayer.
Abonnement mis à jour.
Paiement par carte`;
