export * from './disponibilidades.router';
