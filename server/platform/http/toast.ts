import { z } from "zod";

export const toastSchema = z.object({
  kind: z.enum(["info", "error", "success"]),
  message: z.string().min(1).max(300),
});
export type Toast = z.infer<typeof toastSchema>;
