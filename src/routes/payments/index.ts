export * from './pacotes.router';
export * from './pedidos.router';
export * from './webhooks.router';
