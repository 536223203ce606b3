export * from './profissionais.router';
