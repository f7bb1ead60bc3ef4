import type { Bank } from "./bank.js";

/** Vietnamese banks and e-wallets by their 6-digit NAPAS / VietQR BIN. */
export const VN_BANKS: readonly Bank[] = [
  { code: "970436", name: "Vietcombank", type: "bank" },
  { code: "970415", name: "VietinBank", type: "bank" },
  { code: "970418", name: "BIDV", type: "bank" },
  { code: "970405", name: "Agribank", type: "bank" },
  { code: "970422", name: "MB Bank", type: "bank" },
  { code: "970407", name: "Techcombank", type: "bank" },
  { code: "970416", name: "ACB", type: "bank" },
  { code: "970432", name: "VPBank", type: "bank" },
  { code: "970423", name: "TPBank", type: "bank" },
  { code: "970403", name: "Sacombank", type: "bank" },
  { code: "970437", name: "HDBank", type: "bank" },
  { code: "970441", name: "VIB", type: "bank" },
  { code: "970443", name: "SHB", type: "bank" },
  { code: "970431", name: "Eximbank", type: "bank" },
  { code: "970426", name: "MSB", type: "bank" },
  { code: "970448", name: "OCB", type: "bank" },
  { code: "970449", name: "LPBank", type: "bank" },
  { code: "970440", name: "SeABank", type: "bank" },
  { code: "970454", name: "Viet Capital Bank (BVBank)", type: "bank" },
  { code: "970429", name: "SCB", type: "bank" },
  { code: "970425", name: "ABBANK", type: "bank" },
  { code: "970428", name: "Nam A Bank", type: "bank" },
  { code: "970409", name: "Bac A Bank", type: "bank" },
  { code: "970412", name: "PVcomBank", type: "bank" },
  { code: "970419", name: "NCB", type: "bank" },
  { code: "970452", name: "KienLongBank", type: "bank" },
  { code: "970438", name: "BaoViet Bank", type: "bank" },
  { code: "970400", name: "Saigonbank", type: "bank" },
  { code: "970424", name: "Shinhan Bank Vietnam", type: "bank" },
  { code: "970457", name: "Woori Bank Vietnam", type: "bank" },
  { code: "971005", name: "Viettel Money", type: "mobile_money" },
  { code: "971025", name: "MoMo", type: "mobile_money" },
];

export const findVnBank = (bin: string): Bank | undefined => VN_BANKS.find((bank) => bank.code === bin);
