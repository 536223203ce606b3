export * from './calendario.router';
export * from './logistica.router';
export * from './notifications.router';
export * from './regras-aplicar.router';
