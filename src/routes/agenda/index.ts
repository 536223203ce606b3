export * from './agenda.router';
