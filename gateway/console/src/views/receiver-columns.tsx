import type { ReactNode } from "react";
import type { Column } from "../components/data-table";

interface Receiver {
  readonly config_id: string;
  readonly url: string;
  readonly partner_id: string;
}

/**
 * The columns every table of webhook receivers starts with: the receiver (its id and URL, then what `note`
 * adds) as the row's name, and its partner.
 */
export function receiverColumns<R extends Receiver>(note?: (receiver: R) => ReactNode): Column<R>[] {
  return [
    {
      header: "Receiver",
      rowHeader: true,
      show: (r) => (
        <>
          <span className="mono">{r.config_id}</span>
          <div className="muted wrap">{r.url}</div>
          {note?.(r)}
        </>
      ),
    },
    { header: "Partner", className: "mono", show: (r) => r.partner_id },
  ];
}
