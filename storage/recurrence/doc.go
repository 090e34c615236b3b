// Package recurrence is the pure core of Pix Automático in PixGate: the
// states of a recurrence, of each cycle's charge and of each attempt to
// settle it, with the transitions each allows in one table; the calendar
// of cycles (due dates by periodicity, bounded by an end date or a count);
// the window in which a cycle's charge must be sent to the payer's bank;
// the retry policy; the consent's expiry; and the amount rules (fixed, or
// variable with the integrator's floor and the payer's maximum).
//
// Nothing here touches a database or the network. Storage, the worker,
// the connectors and the sandbox build on it; docs/recurrences.md holds
// the design and the rules, each with its source. The sources cited in
// this package's comments are:
//
//   - [API Pix] the BCB's API Pix 2.9.0, vendored at
//     providerclient/bcbpix/bcbpixtest/testdata/openapi.yaml (bacen/pix-api,
//     commit 1f1b568f6adf5b55a6268efbaf62802a14b01941, 2025-09-05);
//   - [IN 436] Instrução Normativa BCB nº 436, 2023-12-07, the operational
//     procedures of Pix Automático (lex.com.br/instrucao-normativa-bacen-no-436-de-7-de-dezembro-de-2023),
//     replaced by IN BCB nº 513 (2024-08-30) and amended by IN BCB nº 614
//     (2025-05-05, barrosassessoria.com.br/legislacoes/2025/05/06/instrucao-normativa-bcb-no-614-de-05-05-2025.html);
//   - [Asaas] Asaas's "Processo de retentativas (Jornada 3 API)",
//     docs.asaas.com/docs/pix-automático-processo-de-retentativas-jornada-3-api;
//   - [Woovi] Woovi's Pix Automático documentation, woovibr/woovi-developers,
//     docs/pix-automatic/ (developers.woovi.com/docs/pix-automatic/).
package recurrence
