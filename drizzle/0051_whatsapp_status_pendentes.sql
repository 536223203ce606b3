CREATE TABLE `whatsapp_status_pendentes` (
	`wamid` text NOT NULL,
	`status` text NOT NULL,
	`em` text NOT NULL,
	`erro` text,
	`created_at` text NOT NULL,
	PRIMARY KEY(`wamid`, `status`)
);
--> statement-breakpoint
CREATE INDEX `whatsapp_status_pendentes_created_idx` ON `whatsapp_status_pendentes` (`created_at`);