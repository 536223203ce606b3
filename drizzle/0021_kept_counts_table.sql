CREATE TABLE `contagens` (
	`tabela` text NOT NULL,
	`regiao` text NOT NULL,
	`dono` text DEFAULT '' NOT NULL,
	`dia` text DEFAULT '' NOT NULL,
	`n` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`tabela`, `regiao`, `dono`, `dia`)
);
