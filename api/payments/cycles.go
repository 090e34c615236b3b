package payments

import (
	"context"

	"github.com/pixgate/pixgate/storage"
)

// Cycles is one of the integrator's recurrences, by id or external_id,
// with the cycles PixGate holds of it (oldest first, with their attempts).
func (s *Service) Cycles(ctx context.Context, integratorID int64, ref string) (storage.Recurrence, []storage.Cycle, error) {
	r, err := s.Recurrence(ctx, integratorID, ref)
	if err != nil {
		return r, nil, err
	}
	cycles, err := s.recurrences.CyclesOf(ctx, r.ID)
	return r, cycles, err
}
