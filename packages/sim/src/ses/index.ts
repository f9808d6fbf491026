export { modelSesClient } from "./client";
export { sesModelHandler } from "./handler";
export { type SendEmailInput, type SentEmail, SesError, SesModel } from "./model";
