// Copyright 2026 The Invoicing Authors.
//
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use this file except in compliance with the License.
// You may obtain a copy of the License at
//
//     http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.

package v1

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// QuantityScale is how many steps a DecimalQuantity has per unit: it holds
// at most 4 decimal places.
const QuantityScale = 10_000

// DecimalQuantity is a quantity with at most 4 decimal places, written in
// JSON and YAML as a plain number: 3, 7.5, 0.25. It is held exactly, as a
// whole number of ten-thousandths, never as a floating-point number, and
// written back in its shortest form (7.5, never 7.5000), so a whole number
// written before decimals existed reads and writes unchanged.
// +kubebuilder:validation:Type=number
// +kubebuilder:validation:XValidation:rule="double(int(self * 10000.0 + 0.5)) / 10000.0 == self",message="must have at most 4 decimal places"
// +kubebuilder:object:generate=false
type DecimalQuantity struct {
	// TenThousandths is the quantity in ten-thousandths of a unit: 7.5 is
	// 75000. It is exported so that reflection-based comparisons
	// (equality.Semantic, go-cmp) see it; JSON never writes it by name.
	TenThousandths int64 `json:"-"`
}

// Units is a whole quantity of n units.
func Units(n int64) DecimalQuantity { return DecimalQuantity{TenThousandths: n * QuantityScale} }

// QuantityOfScaled is the quantity of scaled ten-thousandths: 75000 is 7.5.
func QuantityOfScaled(scaled int64) DecimalQuantity { return DecimalQuantity{TenThousandths: scaled} }

// Scaled is the quantity in ten-thousandths: 7.5 is 75000.
func (q DecimalQuantity) Scaled() int64 { return q.TenThousandths }

// IsZero reports whether the quantity is 0; omitempty leaves such a field out.
func (q DecimalQuantity) IsZero() bool { return q.TenThousandths == 0 }

// String writes the quantity in its shortest form: "7.5", "3", "0.0001".
func (q DecimalQuantity) String() string {
	s := q.TenThousandths
	sign := ""
	if s < 0 {
		sign, s = "-", -s
	}
	whole, frac := s/QuantityScale, s%QuantityScale
	if frac == 0 {
		return sign + strconv.FormatInt(whole, 10)
	}
	digits := strings.TrimRight(fmt.Sprintf("%04d", frac), "0")
	return sign + strconv.FormatInt(whole, 10) + "." + digits
}

// MarshalJSON writes the quantity as a JSON number in its shortest form.
func (q DecimalQuantity) MarshalJSON() ([]byte, error) { return []byte(q.String()), nil }

// UnmarshalJSON reads a JSON number with at most 4 decimal places, exactly.
func (q *DecimalQuantity) UnmarshalJSON(data []byte) error {
	v, err := ParseDecimalQuantity(string(data))
	if err != nil {
		return err
	}
	*q = v
	return nil
}

// DeepCopyInto copies the quantity; it holds no pointers.
func (q *DecimalQuantity) DeepCopyInto(out *DecimalQuantity) { *out = *q }

// DeepCopy copies the quantity.
func (q *DecimalQuantity) DeepCopy() *DecimalQuantity {
	if q == nil {
		return nil
	}
	out := *q
	return &out
}

// OpenAPISchemaType is the quantity's type in an OpenAPI schema: a number.
func (DecimalQuantity) OpenAPISchemaType() []string { return []string{"number"} }

// OpenAPISchemaFormat is the quantity's format in an OpenAPI schema: none.
func (DecimalQuantity) OpenAPISchemaFormat() string { return "" }

// ErrQuantityPrecision is returned for a number with more than 4 decimal places.
var ErrQuantityPrecision = errors.New("has more than 4 decimal places")

// maxQuantityDigits bounds the whole part: 15 digits keep scaled within int64.
const maxQuantityDigits = 14

// ParseDecimalQuantity reads a decimal number as JSON writes it (an
// optional minus, digits, an optional fraction and an optional exponent)
// with at most 4 decimal places once the exponent is applied. It never goes
// through floating point.
func ParseDecimalQuantity(s string) (DecimalQuantity, error) {
	orig := s
	bad := fmt.Errorf("%q is not a number", orig)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	mantissa, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mantissa = s[:i]
		e, err := strconv.Atoi(strings.TrimPrefix(s[i+1:], "+"))
		if err != nil || e < -40 || e > 40 {
			return DecimalQuantity{}, bad
		}
		exp = e
	}
	whole, frac, hasPoint := strings.Cut(mantissa, ".")
	if whole == "" || !allDigits(whole) || !allDigits(frac) || (hasPoint && frac == "") {
		return DecimalQuantity{}, bad
	}
	digits := strings.TrimLeft(whole+frac, "0")
	point := len(frac) - exp // digits after the decimal point
	// Drop trailing zeros of the digits, which do not add precision.
	for len(digits) > 0 && digits[len(digits)-1] == '0' && point > 0 {
		digits, point = digits[:len(digits)-1], point-1
	}
	if digits == "" {
		return DecimalQuantity{}, nil
	}
	if point > 4 {
		return DecimalQuantity{}, fmt.Errorf("%s %w", orig, ErrQuantityPrecision)
	}
	// Scale to ten-thousandths.
	digits += strings.Repeat("0", 4-point)
	if len(digits) > maxQuantityDigits+4 {
		return DecimalQuantity{}, fmt.Errorf("%s is too large", orig)
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil {
		return DecimalQuantity{}, bad
	}
	if neg {
		n = -n
	}
	return DecimalQuantity{TenThousandths: n}, nil
}

func allDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Equal reports whether q and o are the same quantity; go-cmp uses it.
func (q DecimalQuantity) Equal(o DecimalQuantity) bool { return q.TenThousandths == o.TenThousandths }
