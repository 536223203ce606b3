export * from './cadastro-fot.router';
