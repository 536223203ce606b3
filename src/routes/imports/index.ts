export * from './importacoes.router';
