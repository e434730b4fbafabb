module github.com/stela-ml/stela

go 1.26

require (
	github.com/google/go-cmp v0.7.0
	github.com/x448/float16 v0.8.4
	google.golang.org/protobuf v1.36.10
)
