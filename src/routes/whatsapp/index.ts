export * from './whatsapp.router';
