export * from './logs-atividade.router';
