// Spanish catalogue of the checkout component: one line per message of src/i18n/messages.rs,
// in declaration order. Not in the wasm: js/catalogues.js imports it the first time the
// component shows Spanish (src/i18n/catalogues.rs).
export default `Nombre en la tarjeta
Número de tarjeta
Fecha de caducidad (MM / AA)
Código de seguridad
País
Correo electrónico
Teléfono
Dirección
Ciudad
Provincia / región
Código postal
Tarjetas guardadas
Usar una tarjeta nueva
caduca {0}
Guardar esta tarjeta para futuros pagos
Pagar {0}
Suscribirse
Procesando…
Cargando…
No se ha podido cargar este pago. Actualiza la página.
Revisa: {0}.
Elige un país
Introduce el número de tu tarjeta.
El número de tarjeta solo puede contener dígitos.
El número de tarjeta está incompleto.
El número de tarjeta tiene demasiados dígitos.
El número de tarjeta no es válido.
Introduce la fecha de caducidad.
Introduce la fecha de caducidad como MM / AA.
El mes de caducidad debe estar entre 01 y 12.
El año de caducidad no es válido.
Tu tarjeta ha caducado.
La fecha de caducidad es demasiado lejana.
Introduce el código de seguridad.
El código de seguridad solo puede contener dígitos.
El código de seguridad debe tener {0} dígitos.
El código de seguridad debe tener 3 o 4 dígitos.
Introduce el nombre que figura en la tarjeta.
El nombre puede tener como máximo {0} caracteres.
El nombre contiene caracteres no permitidos.
El nombre no debe contener un número de tarjeta.
Este campo es obligatorio.
Introduce un correo electrónico válido.
Introduce un número de teléfono válido.
Tu tarjeta ha sido rechazada. Usa otra tarjeta o ponte en contacto con tu banco.
Tu tarjeta no tiene fondos suficientes.
Tu tarjeta ha caducado.
Tu tarjeta ha sido rechazada. Usa otra tarjeta.
No se ha podido contactar con tu banco. Inténtalo de nuevo en unos minutos.
Este pago se ha rechazado por motivos de seguridad.
No se ha podido verificar tu tarjeta. Inténtalo de nuevo o usa otra tarjeta.
Tu tarjeta ha sido rechazada.
No se puede conectar con el servidor de pagos. Comprueba tu conexión e inténtalo de nuevo.
Algo ha salido mal. Inténtalo de nuevo.
Demasiados intentos. Espera un momento e inténtalo de nuevo.
Pago realizado
Tu pago de {0} se ha realizado correctamente.
Pago rechazado
Confirmando tu pago…
Puede tardar un momento. Puedes mantener esta página abierta.
Pago en revisión
Aún no hemos podido confirmar tu pago. La tienda se pondrá en contacto contigo.
Pago fallido
No se ha podido completar el pago.
Pago anulado
Pago reembolsado
Comprobar de nuevo
cada día
cada {0} días
cada semana
cada {0} semanas
cada mes
cada {0} meses
{0} {1}
{0} días de prueba gratis
{0} % de descuento en el primer pago
{0} % de descuento en los primeros {1} pagos
{0} pagos en total
Hasta que se cancele
A pagar hoy: {0}
Tus suscripciones
No tienes suscripciones.
Activa
En pausa
Cancelada
Finalizada
Próximo pago: {0}
{0} de {1} pagos realizados
{0} pagos realizados
Pausar
Reanudar
Cancelar suscripción
¿Pausar esta suscripción? No se cobrará nada hasta que la reanudes.
¿Reanudar esta suscripción? Los cobros se reanudan en la próxima fecha de facturación.
¿Cancelar esta suscripción? No se puede deshacer.
Confirmar
Volver
Historial de pagos
Aún no hay pagos.
Pagado
Fallido
Pago
Fecha
Importe
Estado
No se ha podido hacer el cambio. Inténtalo de nuevo.
Suscripción actualizada.
Pago con tarjeta`;
