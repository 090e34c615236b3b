package pixgate_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"os"

	pixgate "github.com/pixgate/pixgate/api/sdk"
)

func Example() {
	ctx := context.Background()
	c, err := pixgate.New(pixgate.Config{BaseURL: "https://pix.example.com", APIKey: os.Getenv("PIXGATE_KEY")})
	if err != nil {
		log.Fatal(err)
	}
	ch, err := c.CreateCharge(ctx, pixgate.ChargeRequest{
		Amount: pixgate.MustAmount("25.00"),
		Payer:  pixgate.Payer{Name: "Fulano de Tal", Document: "52998224725"},
	})
	var pe *pixgate.Error
	switch {
	case errors.As(err, &pe):
		log.Fatalf("refused: %s %v (request %s)", pe.Code, pe.Errors, pe.RequestID)
	case err != nil:
		log.Fatal(err)
	}
	fmt.Println(ch.QRCode)
}

func ExamplePostbackHandler() {
	http.Handle("/pix/hook", pixgate.PostbackHandler(os.Getenv("PIXGATE_WEBHOOK_SECRET"),
		func(_ context.Context, webhookID string, p *pixgate.Postback) error {
			log.Printf("%s: %s %s is %s (%s)", webhookID, p.TransactionType, p.TransactionID, p.Status, p.Amount)
			return nil
		}))
}

func ExampleAmount() {
	a := pixgate.MustAmount("197143.76")
	fmt.Println(a, int64(a), a+pixgate.Reais(0, 24))
	// Output: 197143.76 19714376 197144.00
}
