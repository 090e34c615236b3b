package storage

import (
	"errors"
	"maps"
	"testing"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/money"
)

// The posting builders are pure: these tests need no database.

const testIntegrator = 7

// testProvider holds the charges and transfers of these postings.
const testProvider = "b"

var testID = uuid.MustParse("0195d1a3-1d4f-7c2b-8a5e-3c9d7e1f2a34")

// moves is a posting's entries as account → amount.
type moves map[ledger.Account]money.Money

func movesOf(t ledger.Transaction) moves {
	m := moves{}
	for _, e := range t.Entries {
		m[e.Account] = e.Amount
	}
	return m
}

var (
	available   = ledger.Of(testIntegrator, ledger.Available)
	pending     = ledger.Of(testIntegrator, ledger.Pending)
	reserved    = ledger.Of(testIntegrator, ledger.Reserved)
	blocked     = ledger.Of(testIntegrator, ledger.Blocked)
	debt        = ledger.Of(testIntegrator, ledger.Debt)
	fees        = ledger.Platform(ledger.Fees)
	provider    = ledger.Float(testProvider)
	adjustments = ledger.Platform(ledger.Adjustments)
)

func TestPostingBuilders(t *testing.T) {
	id := testID.String()
	tests := []struct {
		name      string
		got       ledger.Transaction
		reference string
		kind      string
		memo      string
		want      moves // nil: the posting is invalid (nothing moves)
	}{
		{"credit", walletAdjusted(testIntegrator, 500, "float", "op-1"), "adjustment:op-1", "adjustment.credit", "float",
			moves{adjustments: -500, available: 500}},
		{"debit", walletAdjusted(testIntegrator, -500, "mistake", "op-2"), "adjustment:op-2", "adjustment.debit", "mistake",
			moves{adjustments: 500, available: -500}},
		{"zero adjustment", walletAdjusted(testIntegrator, 0, "", "op-3"), "adjustment:op-3", "adjustment.credit", "", nil},

		{"charge paid", chargePaid(testID, testIntegrator, testProvider, 10000, 150, false, 0), "charge:" + id + ":paid", "charge.paid", "",
			moves{provider: -10000, available: 9850, fees: 150}},
		{"charge paid, held", chargePaid(testID, testIntegrator, testProvider, 10000, 150, true, 0), "charge:" + id + ":paid", "charge.paid", "",
			moves{provider: -10000, pending: 9850, fees: 150}},
		{"charge paid, no fee", chargePaid(testID, testIntegrator, testProvider, 10000, 0, false, 0), "charge:" + id + ":paid", "charge.paid", "",
			moves{provider: -10000, available: 10000}},
		{"charge paid, one centavo", chargePaid(testID, testIntegrator, testProvider, 1, 0, true, 0), "charge:" + id + ":paid", "charge.paid", "",
			moves{provider: -1, pending: 1}},

		{"hold ended", chargeHoldEnded(testID, testIntegrator, 9850), "charge:" + id + ":release", "charge.release", "",
			moves{pending: -9850, available: 9850}},
		{"hold ended, nothing held", chargeHoldEnded(testID, testIntegrator, 0), "charge:" + id + ":release", "charge.release", "", nil},

		{"withdrawal created", withdrawalCreated(testID, testIntegrator, 1000, 50), "withdrawal:" + id + ":reserve", "withdrawal.reserve", "",
			moves{available: -1050, reserved: 1050}},
		{"withdrawal created, no fee", withdrawalCreated(testID, testIntegrator, 1000, 0), "withdrawal:" + id + ":reserve", "withdrawal.reserve", "",
			moves{available: -1000, reserved: 1000}},
		{"withdrawal of nothing", withdrawalCreated(testID, testIntegrator, 0, 0), "withdrawal:" + id + ":reserve", "withdrawal.reserve", "", nil},

		{"withdrawal completed", transferCompleted(KindWithdrawal, testID, testIntegrator, testProvider, 1000, 50), "withdrawal:" + id + ":settle", "withdrawal.settle", "",
			moves{reserved: -1050, provider: 1000, fees: 50}},
		{"refund completed, no fee", transferCompleted(KindRefund, testID, testIntegrator, testProvider, 1000, 0), "refund:" + id + ":settle", "refund.settle", "",
			moves{reserved: -1000, provider: 1000}},

		{"withdrawal failed", transferFailed(KindWithdrawal, testID, testIntegrator, 1000, 50, 0, 0, "closed"), "withdrawal:" + id + ":release", "withdrawal.release", "closed",
			moves{reserved: -1050, available: 1050}},
		{"refund failed, part held", transferFailed(KindRefund, testID, testIntegrator, 1000, 50, 300, 0, "x"), "refund:" + id + ":release", "refund.release", "x",
			moves{reserved: -1050, pending: 300, available: 750}},
		{"refund failed, all held", transferFailed(KindRefund, testID, testIntegrator, 1000, 50, 1050, 0, "x"), "refund:" + id + ":release", "refund.release", "x",
			moves{reserved: -1050, pending: 1050}},

		{"paid by another holder", chargePaidByAnotherHolder(testID, testIntegrator, testProvider, 10000), "charge:" + id + ":paid", "charge.returned", "",
			moves{provider: -10000, reserved: 10000}},
		{"infraction blocked, from both", infractionBlocked(testID, testIntegrator, 300, 700), "infraction:" + id + ":block", "infraction.block", "",
			moves{pending: -300, available: -700, blocked: 1000}},
		{"infraction blocked, from available", infractionBlocked(testID, testIntegrator, 0, 700), "infraction:" + id + ":block", "infraction.block", "",
			moves{available: -700, blocked: 700}},
		{"infraction blocked nothing", infractionBlocked(testID, testIntegrator, 0, 0), "infraction:" + id + ":block", "infraction.block", "", nil},
		{"infraction released, part held", infractionReleased(testID, testIntegrator, 1000, 300), "infraction:" + id + ":release", "infraction.release", "",
			moves{blocked: -1000, pending: 300, available: 700}},
		{"infraction released to available", infractionReleased(testID, testIntegrator, 1000, 0), "infraction:" + id + ":release", "infraction.release", "",
			moves{blocked: -1000, available: 1000}},
		{"MED return created", medReturnCreated(testID, testIntegrator, 1000, 0, 0), "med_return:" + id + ":reserve", "med_return.reserve", "",
			moves{blocked: -1000, reserved: 1000}},
		{"MED return created, part owed", medReturnCreated(testID, testIntegrator, 300, 0, 700), "med_return:" + id + ":reserve", "med_return.reserve", "",
			moves{blocked: -300, debt: -700, reserved: 1000}},
		{"MED return created, part from available, part owed", medReturnCreated(testID, testIntegrator, 300, 200, 500), "med_return:" + id + ":reserve", "med_return.reserve", "",
			moves{blocked: -300, available: -200, debt: -500, reserved: 1000}},
		{"MED return created, nothing blocked", medReturnCreated(testID, testIntegrator, 0, 0, 1000), "med_return:" + id + ":reserve", "med_return.reserve", "",
			moves{debt: -1000, reserved: 1000}},
		{"MED return failed, its debt still owed", transferFailed(KindMedReturn, testID, testIntegrator, 1000, 0, 0, 700, "x"), "med_return:" + id + ":release", "med_return.release", "x",
			moves{reserved: -1000, debt: 700, available: 300}},
		{"charge paid, part of it to a debt", chargePaid(testID, testIntegrator, testProvider, 10000, 150, false, 2000), "charge:" + id + ":paid", "charge.paid", "",
			moves{provider: -10000, debt: 2000, available: 7850, fees: 150}},
		{"charge paid, held, all its net to a debt", chargePaid(testID, testIntegrator, testProvider, 10000, 150, true, 9850), "charge:" + id + ":paid", "charge.paid", "",
			moves{provider: -10000, debt: 9850, fees: 150}},
		{"MED return completed", transferCompleted(KindMedReturn, testID, testIntegrator, testProvider, 1000, 0), "med_return:" + id + ":settle", "med_return.settle", "",
			moves{reserved: -1000, provider: 1000}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got.Reference != tt.reference || tt.got.Kind != tt.kind || tt.got.Memo != tt.memo {
				t.Errorf("reference, kind, memo = %q, %q, %q; want %q, %q, %q", tt.got.Reference, tt.got.Kind, tt.got.Memo, tt.reference, tt.kind, tt.memo)
			}
			err := tt.got.Validate()
			if tt.want == nil {
				if !errors.Is(err, ledger.ErrInvalid) {
					t.Fatalf("Validate() = %v, want ErrInvalid for a posting that moves nothing (entries %v)", err, tt.got.Entries)
				}
				return
			}
			if err != nil {
				t.Fatalf("Validate() = %v", err)
			}
			if got := movesOf(tt.got); !maps.Equal(got, tt.want) {
				t.Errorf("entries = %v, want %v", got, tt.want)
			}
		})
	}
}

// A refund's reservation takes from pending as far as the charge's held
// net goes, never more than the refund, never less than nothing.
func TestRefundCreatedSplitsBetweenHeldAndAvailable(t *testing.T) {
	tests := []struct {
		name            string
		held            money.Money
		wantFromPending money.Money
		want            moves
	}{
		{"nothing held", 0, 0, moves{available: -1050, reserved: 1050}},
		{"part held", 300, 300, moves{pending: -300, available: -750, reserved: 1050}},
		{"exactly held", 1050, 1050, moves{pending: -1050, reserved: 1050}},
		{"more held than the refund", 9850, 1050, moves{pending: -1050, reserved: 1050}},
		{"a negative held is nothing", -5, 0, moves{available: -1050, reserved: 1050}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, fromPending := refundCreated(testID, testIntegrator, 1000, 50, tt.held)
			if fromPending != tt.wantFromPending {
				t.Errorf("fromPending = %s, want %s", fromPending, tt.wantFromPending)
			}
			if got.Reference != "refund:"+testID.String()+":reserve" || got.Kind != "refund.reserve" {
				t.Errorf("reference, kind = %q, %q", got.Reference, got.Kind)
			}
			if err := got.Validate(); err != nil {
				t.Fatal(err)
			}
			if m := movesOf(got); !maps.Equal(m, tt.want) {
				t.Errorf("entries = %v, want %v", m, tt.want)
			}
		})
	}
}

// Every builder balances whatever the amounts, down to one centavo.
func TestPostingsBalanceAtEveryAmount(t *testing.T) {
	for _, amount := range []money.Money{1, 2, 99, 100, 10001, 100_000_00} {
		for _, fee := range []money.Money{0, 1, amount / 3} {
			for _, held := range []money.Money{0, 1, amount / 2, amount + fee} {
				reserve, fromPending := refundCreated(testID, testIntegrator, amount, fee, held)
				for _, p := range []ledger.Transaction{
					walletAdjusted(testIntegrator, amount, "", "r"), walletAdjusted(testIntegrator, -amount, "", "r"),
					chargePaid(testID, testIntegrator, testProvider, amount+fee, fee, held > 0, 0), chargeHoldEnded(testID, testIntegrator, amount),
					withdrawalCreated(testID, testIntegrator, amount, fee), reserve,
					transferCompleted(KindRefund, testID, testIntegrator, testProvider, amount, fee),
					transferFailed(KindRefund, testID, testIntegrator, amount, fee, fromPending, 0, ""),
					chargePaidByAnotherHolder(testID, testIntegrator, testProvider, amount), medReturnCreated(testID, testIntegrator, amount, fee, held), medReturnCreated(testID, testIntegrator, 0, 0, amount),
					chargePaid(testID, testIntegrator, testProvider, amount+fee, fee, held > 0, min(held, amount)),
					infractionBlocked(testID, testIntegrator, min(held, amount), amount-min(held, amount)),
					infractionReleased(testID, testIntegrator, amount, min(held, amount)),
				} {
					if err := p.Validate(); err != nil {
						t.Fatalf("%s (amount %s, fee %s, held %s): %v", p.Kind, amount, fee, held, err)
					}
				}
			}
		}
	}
}
