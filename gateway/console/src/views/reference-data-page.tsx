import { CorridorsTable } from "./corridors-table";
import { FxRatesTable } from "./fx-rates-table";

export function ReferenceDataPage() {
  return (
    <>
      <h1>Reference data</h1>
      <p className="muted">
        Changes apply to quotes and previews made after they are saved; quotes already given keep their price.
      </p>
      <FxRatesTable />
      <CorridorsTable />
    </>
  );
}
