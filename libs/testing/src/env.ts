// The only place this package reads the environment.

function read(name: string): string | undefined {
  const value = process.env[name]?.trim();
  return value ? value : undefined;
}

export const env = {
  natsUrl: () => read('NATS_URL'),
  databaseUrl: () => read('DATABASE_URL'),
  path: () => read('PATH'),
};
