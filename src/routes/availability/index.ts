export * from './disponibilidades.router';
export * from './campanhas.router';
