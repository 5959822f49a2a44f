// The React shop's entry: one page, the teapot's checkout (or, back from 3-D Secure, the
// order's result).
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { Shop } from "./Shop";

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <Shop />
  </StrictMode>,
);
