// Imported first by npm start, npm run worker and npm run db:migrate: they run as production
// unless NODE_ENV says otherwise (decision 038). It is set before anything loads React or Remix,
// which pick their production builds from it, and the server process inherits it.
if (!process.env.NODE_ENV?.trim()) process.env.NODE_ENV = "production";

export {};
