import os from "node:os";
import sharp from "sharp";
import type { Db } from "#server/platform/db/client";
import type { GenerationSource } from "#server/platform/page-cache/generation";
import { createSemaphore, type Semaphore } from "./semaphore";
import { createPhotoServer, type PhotoServer } from "./serve";

/** The photo service of one process, built by the composition root. */
export type PhotoMedia = {
  /** Image work takes turns: at most one photo per core is decoded at once. */
  processing: Semaphore;
  /** The photos' bytes, served on both hosts. */
  server: PhotoServer;
};

export function createPhotoMedia({ db, generation }: { db: Db; generation: GenerationSource }): PhotoMedia {
  // libvips keeps recent operations and their pixels for reuse; an upload is never decoded twice,
  // so that cache would only hold on to memory after each one.
  sharp.cache(false);
  return { processing: createSemaphore(Math.max(1, Math.min(2, os.availableParallelism()))), server: createPhotoServer({ db, generation }) };
}
