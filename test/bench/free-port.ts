export { freePort } from "../support/free-port.js";
