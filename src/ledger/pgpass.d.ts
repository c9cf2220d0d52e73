declare module 'pgpass' {
  /** Looks the connection up in PGPASSFILE or ~/.pgpass; calls back with the password, or undefined. */
  type Connection = { host: string; port: string; database: string; user: string };
  export default function pgpass(connection: Connection, callback: (password: string | undefined) => void): void;
}
