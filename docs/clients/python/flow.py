"""A v1 and a v2 flow against a PixGate with the Python client swagger-codegen
generates from docs/openapi.yaml (package pixgate_client, on PYTHONPATH; the
test that runs this generates it first).

The integrator behind PIXGATE_KEY has R$ 197,143.76 available, a cash-in fee
of 1.5 % and a cash-out fee of R$ 0.50; every amount read back must be the
amount written, to the centavo.
"""

import os
import sys
import time
import urllib.request

import pixgate_client as pg
from pixgate_client.rest import ApiException

BASE = os.environ["PIXGATE_URL"]
SANDBOX = os.environ["PIXGATE_SANDBOX_URL"]
KEY = os.environ["PIXGATE_KEY"]


class FlowError(Exception):
    pass


def client(token=None, basic=None):
    """An API client sending token as the bearer credential (the generator
    leaves bearer schemes to the caller), or HTTP Basic credentials (what it
    sends to the token endpoint in any case)."""
    cfg = pg.Configuration()
    cfg.host = BASE
    if basic:
        cfg.username, cfg.password = basic
    if token is None:
        return pg.ApiClient(cfg)
    return pg.ApiClient(cfg, header_name="Authorization", header_value="Bearer " + token)


def same(what, got, want):
    """An amount, exactly: the float read must be the float of the decimal
    written, and print as it."""
    if got != want or "%.2f" % got != "%.2f" % want:
        raise FlowError("%s = %r, want exactly %.2f" % (what, got, want))


def expect(what, call, status):
    """call() through the generated *_with_http_info method: (data, status)."""
    try:
        data, got, _ = call()
    except ApiException as e:
        raise FlowError("%s: status %s, want %s: %s" % (what, e.status, status, e.body))
    if got != status:
        raise FlowError("%s: status %s, want %s" % (what, got, status))
    return data


def refused(what, call, status, api, model):
    """The ApiException of a refused call, its body read as model."""
    try:
        call()
    except ApiException as e:
        if e.status != status:
            raise FlowError("%s: status %s, want %s: %s" % (what, e.status, status, e.body))
        return api.deserialize(type("R", (), {"data": e.body})(), model)
    raise FlowError("%s: not refused" % what)


def pay(pix_id):
    req = urllib.request.Request("%s/sandbox/charges/%s/pay" % (SANDBOX, pix_id), method="POST")
    with urllib.request.urlopen(req, timeout=10) as r:
        if r.status != 200:
            raise FlowError("sandbox pay: %s" % r.status)


def eventually(what, cond):
    deadline = time.monotonic() + 20
    while not cond():
        if time.monotonic() > deadline:
            raise FlowError("not within 20s: " + what)
        time.sleep(0.05)


def run_v1():
    api = client(KEY)
    balance, charges, withdrawals = pg.BalanceApi(api), pg.ChargesApi(api), pg.WithdrawalsApi(api)
    same("available_balance", expect("balance", balance.get_balance_with_http_info, 200).available_balance, 197143.76)

    body = pg.ChargeRequest(amount=12345.67, external_id="py-client-charge",
                            payer=pg.Payer(name="Fulano de Tal", document="52998224725"))
    charge = expect("create charge", lambda: charges.create_charge_with_http_info(body), 201)
    same("amount", charge.amount, 12345.67)
    same("fee", charge.fee, 185.19)
    same("net_amount", charge.net_amount, 12160.48)
    pay(charge.pix_id)
    eventually("charge PAID", lambda: expect("get charge", lambda: charges.get_charge_with_http_info("py-client-charge"), 200).status == "PAID")
    page = expect("list charges", lambda: charges.list_charges_with_http_info(per_page=1, status="PAID"), 200)
    if len(page.data) != 1 or page.data[0].id != charge.id:
        raise FlowError("list charges: %r" % page)

    body = pg.WithdrawalRequest(amount=1000.01, credit_party=pg.CreditParty(
        name="Beltrano", key_type="EMAIL", key="beltrano@example.com", tax_id="52998224725"))
    w = expect("create withdrawal", lambda: withdrawals.create_withdrawal_with_http_info(body), 201)
    same("withdrawal amount", w.amount, 1000.01)
    same("withdrawal total", w.total, 1000.51)
    # 197,143.76 + 12,160.48 - 1,000.51
    same("available_balance after", expect("balance", balance.get_balance_with_http_info, 200).available_balance, 208303.73)


def run_v2():
    public_id, secret = KEY.split(".", 1)
    # The generated client always authenticates the token request with HTTP
    # Basic (the operation's security scheme), as the family's clients do.
    wrong = pg.V2Api(client(basic=(public_id, "sk_wrong")))
    err = refused("token with a wrong secret", wrong.create_access_token_with_http_info, 401, wrong.api_client, "TokenError")
    if err.error != "invalid_client" or not err.error_description:
        raise FlowError("token error: %r" % err)
    anon = pg.V2Api(client(basic=(public_id, secret)))
    token = expect("token", anon.create_access_token_with_http_info, 200).access_token

    api = client(token)
    v2 = pg.V2Api(api)
    same("v2 available", expect("balance", v2.get_v2_balance_with_http_info, 200).available, 208303.73)

    no_document = pg.ChargeRequest(amount=15.5, payer=pg.Payer(name="Fulano de Tal", document=""))
    err = refused("charge without a document", lambda: v2.create_v2_charge_with_http_info(no_document), 422, api, "Error")
    if not (err.errors or {}).get("payer.document") or not err.message.startswith("payer.document "):
        raise FlowError("charge without a document: payer.document not named: %r" % err)
    qr = expect("qrcode", lambda: v2.create_v2_charge_with_http_info(
        pg.ChargeRequest(amount=15.5, payer=pg.Payer(name="Fulano de Tal", document="52998224725"))), 200)
    same("qrcode amount", qr.amount, 15.5)
    pay(qr.transaction_id)

    def consult(pix_id):
        return expect("consult " + pix_id, lambda: v2.consult_transaction_with_http_info(
            pg.ConsultRequest(pix_id=pix_id)), 200).request_body

    eventually("charge PAID", lambda: consult(qr.transaction_id).status == "PAID")
    refund = expect("refund", lambda: v2.create_v2_refund_with_http_info(
        pg.V2RefundRequest(pix_id=qr.transaction_id, amount=0.1)), 200)
    tx = consult(refund.transaction_id)
    same("refund amount", tx.amount, 0.1)
    if tx.pix_id != qr.transaction_id:
        raise FlowError("refund pix_id = %r" % tx.pix_id)

    payment = expect("payment", lambda: v2.create_v2_payment_with_http_info(pg.WithdrawalRequest(
        amount=0.07, credit_party=pg.CreditParty(name="Beltrano", key_type="EVP",
                                                 key="123e4567-e12b-12d1-a456-426655440000", tax_id="11222333000181"))), 200)
    same("payment amount", consult(payment.transaction_id).amount, 0.07)


if __name__ == "__main__":
    try:
        run_v1()
        run_v2()
    except FlowError as e:
        print("python client flow:", e, file=sys.stderr)
        sys.exit(1)
    print("python client flow: ok")
