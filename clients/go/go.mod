module github.com/contact-validator/contact-validator-go

go 1.22
