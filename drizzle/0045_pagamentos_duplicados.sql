CREATE TABLE `pagamentos_duplicados` (
	`id` text PRIMARY KEY NOT NULL,
	`regiao` text NOT NULL,
	`pedido_id` text NOT NULL,
	`provedor` text NOT NULL,
	`pagamento_id` text NOT NULL,
	`valor_centavos` integer NOT NULL,
	`status_gateway` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`pedido_id`) REFERENCES `pedidos`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE UNIQUE INDEX `pagamentos_duplicados_pagamento_uq` ON `pagamentos_duplicados` (`provedor`,`pagamento_id`);--> statement-breakpoint
CREATE INDEX `pagamentos_duplicados_pedido_idx` ON `pagamentos_duplicados` (`pedido_id`);