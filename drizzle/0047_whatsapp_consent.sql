-- WhatsApp consent is given for one number (docs/decisions.md#d30): when a profile's `whatsapp` changes,
-- its consent and the E.164 copy the messages are sent to are cleared; the professional opts in again
-- (PUT /api/me/canais) for the new number.
CREATE TRIGGER `profissionais_whatsapp_consent` AFTER UPDATE OF `whatsapp` ON `profissionais`
WHEN OLD.`whatsapp` IS NOT NEW.`whatsapp` AND (NEW.`whatsapp_desde` IS NOT NULL OR NEW.`whatsapp_e164` IS NOT NULL)
BEGIN
  UPDATE `profissionais` SET `whatsapp_desde` = NULL, `whatsapp_e164` = NULL WHERE `id` = NEW.`id`;
END;
