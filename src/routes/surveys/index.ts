export * from './pesquisas.router';
