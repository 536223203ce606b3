export * from './confiabilidade.router';
