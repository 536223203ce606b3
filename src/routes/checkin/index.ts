export * from './checkin.router';
