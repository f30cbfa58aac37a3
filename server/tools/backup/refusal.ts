/** A backup or restore that was refused before anything changed; its message says why and what to do. */
export class BackupRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupRefusal";
  }
}
