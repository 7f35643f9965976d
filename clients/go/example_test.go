package contactvalidator_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"time"

	cv "github.com/contact-validator/contact-validator-go"
)

func Example() {
	client := cv.New(os.Getenv("CV_API_KEY"), cv.WithBaseURL("http://localhost:8080"), cv.WithTimeout(30*time.Second))
	res, err := client.Validate(context.Background(), cv.ValidateParams{
		Address: "1600 Amphitheatre Pkwy, Mountain View, CA 94043",
		Email:   "someone@example.com",
		Phone:   "+14155550123",
	})
	var apiErr *cv.Error
	switch {
	case errors.Is(err, cv.ErrInsufficientCredits):
		errors.As(err, &apiErr)
		log.Fatalf("needs %v credits, %v left", apiErr.Extensions["required"], apiErr.Extensions["balance"])
	case err != nil:
		log.Fatal(err)
	}
	fmt.Println(res.Address.Status, res.Email.Status, res.Phone.Type)
}

func ExampleBatchesService_ListAll() {
	client := cv.New(os.Getenv("CV_API_KEY"))
	it := client.Batches.ListAll(context.Background(), &cv.ListBatchesParams{Limit: 50})
	for it.Next() {
		b := it.Current()
		fmt.Println(b.BatchID, b.Status)
	}
	if err := it.Err(); err != nil {
		log.Fatal(err)
	}
}
