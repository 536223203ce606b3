export * from './cidades.router';
export * from './deslocamentos.router';
