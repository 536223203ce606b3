export * from './ranking.router';
