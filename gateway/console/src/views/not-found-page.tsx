import { Link } from "react-router";

export function NotFoundPage() {
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        There is no console page at this address. <Link to="/">Go to the overview</Link>.
      </p>
    </section>
  );
}
