-- Profiles linked to a still-pending account were self-created by that sign-up: not approved yet.
-- (Unlinked profiles left by earlier rejections cannot be told apart from administrators' ones.)
UPDATE `profissionais` SET `aprovado` = false WHERE `usuario_id` IN (SELECT `id` FROM `users` WHERE `ativo` = 0);
