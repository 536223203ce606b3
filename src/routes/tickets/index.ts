export * from './chamados.router';
