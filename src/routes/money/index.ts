export * from './financeiro.router';
