import BillfoldCore
import ExpensesCore
import ExpensesPlugin
import Foundation
import Testing

@Suite struct ExpenseRulesTests {
    @Test(arguments: [
        // original, rate, trip currency, expected converted minor units
        (usd(100), "0.125", Currency.eur, Int64(13)),          // 12.5 cents: ties go up
        (usd(100), "0.115", .eur, 12),                         // 11.5 → 12
        (usd(100), "0.114999", .eur, 11),
        (usd(1234), "0.92345", .eur, 1140),                    // 11.395373 → 11.40
        (jpy(1000), "0.0061", .eur, 610),                      // yen have no decimals
        (jpy(999), "0.00615", .eur, 614),                      // 6.14385 → 6.14
        (eur(1250), "160.5", .jpy, 2006),                      // 2006.25 yen → 2006
        (eur(100), "150.5", .jpy, 151),                        // 150.5 yen → 151
        (eur(1000), "0.4123456", bhd, 4123), // three decimals: 4.123456 → 4.123
        (eur(1000), "0.4123500", bhd, 4124),
    ])
    func conversionRoundsHalfUpOnceToTheTripCurrency(original: Money, rate: String, trip: Currency, expected: Int64) throws {
        let amounts = try ExpenseAmounts.converting(original, to: trip, rate: dec(rate))
        #expect(amounts.converted == Money(minorUnits: expected, currency: trip))
        #expect(amounts.original == original)
        #expect(amounts.exchangeRate == dec(rate))
        #expect(amounts.isConverted)
    }

    @Test func sameCurrencyNeedsNoRateAndDropsOne() throws {
        let amounts = try ExpenseAmounts.converting(eur(1999), to: .eur, rate: dec("1.3"))
        #expect(amounts.converted == eur(1999))
        #expect(amounts.exchangeRate == nil)
        #expect(!amounts.isConverted)
        #expect(meal(eur(500), rate: dec("2")).normalized(for: .eur).exchangeRate == nil)
    }

    @Test func aRateIsNeededAndMustBePositiveWhenCurrenciesDiffer() {
        let trip = lisbonTrip()
        #expect(meal(usd(500)).check(for: trip).errors == [.missingExchangeRate(from: .usd, to: .eur)])
        #expect(meal(usd(500), rate: 0).check(for: trip).errors == [.nonPositiveExchangeRate])
        #expect(meal(usd(500), rate: dec("-0.9")).check(for: trip).errors == [.nonPositiveExchangeRate])
        #expect(meal(usd(500), rate: .nan).check(for: trip).errors == [.nonPositiveExchangeRate])
        let fine = meal(usd(500), rate: dec("0.9")).check(for: trip)
        #expect(fine.canSave)
        #expect(fine.amounts?.converted == eur(450))
        #expect(fine.errors(for: .exchangeRate).isEmpty)
        #expect(meal(usd(500)).check(for: trip).errors(for: .exchangeRate).count == 1)
        #expect(meal(usd(500)).check(for: trip).amounts == nil)
    }

    @Test func formsAreCheckedFieldByField() {
        let trip = lisbonTrip()
        let empty = ExpenseDetails(date: day("2024-03-05"), category: .meals, vendor: "  ", amount: eur(0))
        #expect(Set(empty.check(for: trip).errors) == [.emptyVendor, .nonPositiveAmount])
        #expect(empty.check(for: trip).errors.allSatisfy { $0.errorDescription?.isEmpty == false })
        #expect(meal(eur(-100)).check(for: trip).errors == [.nonPositiveAmount])

        let mileageAsAmount = ExpenseDetails(date: day("2024-03-05"), category: .mileage, vendor: "", amount: eur(100))
        #expect(mileageAsAmount.check(for: trip).errors == [.mileageNeedsDistance])
        var distanceForMeal = ExpenseDetails(date: day("2024-03-05"),
                                             mileage: Mileage(distance: 10, unit: .kilometres, ratePerUnit: dec("0.3"), currency: .eur))
        distanceForMeal.category = .meals
        distanceForMeal.vendor = "Somewhere"
        #expect(distanceForMeal.check(for: trip).errors == [.distanceOnlyForMileage])
        #expect(meal(Money(minorUnits: .max, currency: .usd), rate: 2).check(for: trip).errors == [.amountTooLarge])
    }

    @Test func mileageIsDistanceTimesRateRoundedOnce() throws {
        let trip = lisbonTrip()
        let drive = ExpenseDetails(date: day("2024-03-04"),
                                   mileage: Mileage(distance: dec("123.4"), unit: .kilometres, ratePerUnit: dec("0.30"), currency: .eur))
        #expect(drive.check(for: trip).canSave)   // no vendor needed for a drive
        #expect(try drive.validated(for: trip) == ExpenseAmounts(original: eur(3702), exchangeRate: nil, converted: eur(3702)))

        // A US rate below the cent, then converted: 12.5 mi × 0.655 = 8.1875 → 8.19 USD; × 0.9 = 7.371 → 7.37 EUR.
        let miles = ExpenseDetails(date: day("2024-03-04"),
                                   mileage: Mileage(distance: dec("12.5"), unit: .miles, ratePerUnit: dec("0.655"), currency: .usd),
                                   exchangeRate: dec("0.9"))
        let amounts = try miles.validated(for: trip)
        #expect(amounts.original == usd(819))
        #expect(amounts.converted == eur(737))

        let zero = ExpenseDetails(date: day("2024-03-04"),
                                  mileage: Mileage(distance: 0, unit: .miles, ratePerUnit: 0, currency: .eur))
        #expect(Set(zero.check(for: trip).errors) == [.nonPositiveDistance, .nonPositiveMileageRate])
    }

    @Test func aDateOutsideTheTripIsAWarningNotARefusal() throws {
        let trip = lisbonTrip()
        let early = meal(eur(900), on: "2024-03-01")
        let check = early.check(for: trip)
        #expect(check.canSave)
        #expect(check.warnings == [.dateOutsideTrip(date: day("2024-03-01"), trip: trip.days)])
        #expect(check.warnings.first?.field == .date)
        #expect(check.warnings.first?.errorDescription?.isEmpty == false)
        #expect(meal(eur(900), on: "2024-03-04").warnings(for: trip).isEmpty)
        #expect(meal(eur(900), on: "2024-03-08").warnings(for: trip).isEmpty)
        #expect(meal(eur(900), on: "2024-03-09").warnings(for: trip).count == 1)
    }

    @Test func tripsNeedANameAndAnEndAfterTheStart() {
        var trip = lisbonTrip()
        #expect(trip.problems().isEmpty)
        trip.name = " \n"
        trip.endDate = day("2024-03-01")
        #expect(trip.problems() == [.emptyName, .endBeforeStart])
        #expect(trip.problems().map(\.field) == [.name, .endDate])
        #expect(throws: TripValidationError.emptyName) { try trip.validate() }
    }

    @Test func categoriesAndUnitsHaveNamesForPeople() {
        #expect(ExpenseCategory.allCases.count == 7)
        #expect(Set(ExpenseCategory.allCases.map(\.localizedName)).count == 7)
        #expect(ExpenseCategory.mileage.localizedName == "Mileage")
        #expect(DistanceUnit.miles.localizedSymbol == "mi")
    }
}

@Suite struct DraftTests {
    @Test func draftsStartInsideTheTrip() {
        let trip = lisbonTrip()
        #expect(ExpenseDetails.draft(for: trip, today: day("2024-03-06")).date == day("2024-03-06"))
        #expect(ExpenseDetails.draft(for: trip, today: day("2025-01-01")).date == day("2024-03-04"))
        let draft = ExpenseDetails.draft(for: trip, today: day("2024-03-06"))
        #expect(draft.cost == .amount(eur(0)))
        #expect(!draft.check(for: trip).canSave)
        let newTrip = TripDetails.draft(today: day("2024-07-01"), currency: .chf)
        #expect(newTrip.days.dayCount == 1 && newTrip.currency == .chf)
        #expect(newTrip.problems() == [.emptyName])
    }

    @Test func switchingToMileageAndBackChangesTheCost() {
        var details = meal(usd(1200))
        details.setCategory(.mileage, distanceUnit: .miles)
        #expect(details.cost == .mileage(Mileage(distance: 0, unit: .miles, ratePerUnit: 0, currency: .usd)))
        details.cost = .mileage(Mileage(distance: 10, unit: .miles, ratePerUnit: dec("0.655"), currency: .usd))
        details.setCategory(.transit)
        #expect(details.cost == .amount(usd(655)))
        details.setCategory(.meals)
        #expect(details.cost == .amount(usd(655)))
    }
}
