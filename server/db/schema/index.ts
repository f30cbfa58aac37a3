export * from "./auth";
export * from "./accounts";
export * from "./opportunities";
export * from "./sponsors";
export * from "./bizbio";
export * from "./payments";
export * from "./alerts";
