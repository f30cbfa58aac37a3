export { startStripeEmulator, type EmulatorOptions, type RequestRecord, type StripeEmulator } from "#tests/support/stripe-emulator/server";
export type { EmulatorEvent, SignedDelivery, Delivery } from "#tests/support/stripe-emulator/events";
export { processingFee } from "#tests/support/stripe-emulator/objects";
