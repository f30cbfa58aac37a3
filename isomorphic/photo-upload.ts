/**
 * What a profile photo upload takes, stated once for the form (accept, hint)
 * and for the server's checks (server/domains/media/).
 */
export const PHOTO_MAX_BYTES = 10 * 1024 * 1024;
export const PHOTO_MAX_TEXT = "10 MB";
/** The file picker's filter; the server looks at the bytes, never at this. */
export const PHOTO_ACCEPT = "image/jpeg,image/png,image/webp,image/heic,image/heif,image/avif,.jpg,.jpeg,.png,.webp,.heic,.heif,.avif";
export const PHOTO_TYPES_TEXT = "JPEG, PNG, WebP, HEIC or AVIF";
/** The form's file field and the address that takes it. */
export const PHOTO_FIELD = "photo";
export const PHOTO_ACTION = "/app/account/photo";
