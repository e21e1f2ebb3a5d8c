import BillfoldCore
import ExpensesCore
import ExpensesPlugin
import Foundation
import Storage
import Testing

@Suite struct ReceiptReferenceCountingTests {
    @Test func aReceiptGoesWithTheLastExpenseThatUsesIt() throws {
        let workspace = try Workspace()
        let repository = workspace.repository
        let trip = try repository.createTrip(lisbonTrip())
        let receipt = try repository.importReceipt(from: try workspace.pick(Samples.jpeg, named: "r.jpg")).reference
        let again = try repository.importReceipt(from: try workspace.pick(Samples.jpeg, named: "same.jpg"))
        #expect(again.wasAlreadyStored && again.reference == receipt)
        #expect(try repository.receiptInfo(for: receipt)?.originalName == "r.jpg")

        let lunch = try repository.addExpense(meal(eur(1500), receipt: receipt), to: trip.id)
        let dinner = try repository.addExpense(meal(eur(3000), vendor: "Dinner", receipt: receipt), to: trip.id)
        #expect(try repository.referenceCount(of: receipt) == 2)

        try repository.deleteExpense(lunch.id)
        #expect(workspace.isStored(receipt))
        #expect(try repository.referenceCount(of: receipt) == 1)

        try repository.deleteExpense(dinner.id)
        #expect(!workspace.isStored(receipt))
        #expect(try repository.receiptInfo(for: receipt) == nil)
    }

    @Test func replacingOrRemovingAReceiptDeletesTheOldFileWhenUnused() throws {
        let workspace = try Workspace()
        let repository = workspace.repository
        let trip = try repository.createTrip(lisbonTrip())
        let first = try repository.importReceipt(data: Samples.jpeg, suggestedName: "1.jpg").reference
        let second = try repository.importReceipt(data: Samples.png, suggestedName: "2.png").reference
        var expense = try repository.addExpense(meal(eur(1500), receipt: first), to: trip.id)
        expense.receipt = second
        expense = try repository.updateExpense(expense)
        #expect(!workspace.isStored(first))
        #expect(workspace.isStored(second))
        expense.receipt = nil
        try repository.updateExpense(expense)
        #expect(!workspace.isStored(second))
        #expect(workspace.store.storedReferences().isEmpty)
    }

    @Test func aReceiptStoredWithoutTheRepositoryIsRecordedWhenAttached() throws {
        let workspace = try Workspace()
        let trip = try workspace.repository.createTrip(lisbonTrip())
        let reference = try workspace.store.importData(Samples.png, suggestedName: "dropped.png").reference
        let expense = try workspace.repository.addExpense(meal(eur(100), receipt: reference), to: trip.id)
        #expect(expense.receipt == reference)
        #expect(try workspace.repository.receiptInfo(for: reference)?.pixelWidth == 40)

        let nowhere = try #require(ReceiptReference(digest: String(repeating: "ab", count: 32), kind: .jpeg))
        #expect(throws: ReceiptError.missing(nowhere)) {
            try workspace.repository.addExpense(meal(eur(100), receipt: nowhere), to: trip.id)
        }
    }

    @Test func aMissingReceiptFileLeavesTheExpenseReadable() throws {
        let workspace = try Workspace()
        let trip = try workspace.repository.createTrip(lisbonTrip())
        let reference = try workspace.repository.importReceipt(data: Samples.jpeg, suggestedName: "r.jpg").reference
        let expense = try workspace.repository.addExpense(meal(eur(100), receipt: reference), to: trip.id)
        try FileManager.default.removeItem(at: workspace.store.url(for: reference))
        #expect(try workspace.repository.expenses(in: trip.id) == [expense])
        #expect(workspace.repository.receiptStatus(reference) == .missing)
        // Deleting it does not trip over the missing file.
        try workspace.repository.deleteExpense(expense.id)
        #expect(try workspace.repository.receiptInfo(for: reference) == nil)
    }

    @Test func deletingATripCanBeUndoneUntilItsReceiptsArePurged() throws {
        let workspace = try Workspace()
        let repository = workspace.repository
        let trip = try repository.createTrip(lisbonTrip())
        let own = try repository.importReceipt(data: Samples.jpeg, suggestedName: "own.jpg").reference
        let shared = try repository.importReceipt(data: Samples.png, suggestedName: "shared.png").reference
        let a = try repository.addExpense(meal(eur(1000), receipt: own), to: trip.id)
        let b = try repository.addExpense(meal(usd(2000), vendor: "B", rate: dec("0.9"), receipt: shared), to: trip.id)
        let c = try repository.addExpense(meal(eur(500), vendor: "C"), to: trip.id)
        let other = try repository.createTrip(TripDetails(name: "Porto", startDate: day("2024-04-01"),
                                                          endDate: day("2024-04-02"), currency: .eur))
        try repository.addExpense(meal(eur(700), on: "2024-04-01", receipt: shared), to: other.id)

        let deleted = try repository.deleteTrip(trip.id)
        #expect(try repository.trip(trip.id) == nil)
        #expect(try repository.expenses(in: trip.id).isEmpty)
        #expect(try repository.tripSummaries().map(\.id) == [other.id])
        #expect(workspace.isStored(own) && workspace.isStored(shared))   // the undo window is open

        let restored = try repository.restore(deleted)
        #expect(restored == trip)
        #expect(try repository.trip(trip.id) == trip)
        #expect(try repository.expenses(in: trip.id) == [a, b, c])
        try repository.purgeDeletedReceipts(deleted)   // a late purge after undo removes nothing in use
        #expect(workspace.isStored(own) && workspace.isStored(shared))

        let deletedAgain = try repository.deleteTrip(trip.id)
        try repository.purgeDeletedReceipts(deletedAgain)
        #expect(!workspace.isStored(own))
        #expect(workspace.isStored(shared))   // Porto still uses it
        #expect(try repository.expenses(in: other.id).first?.receipt == shared)
    }

    @Test func overlappingUndoWindowsKeepEachOthersReceipts() throws {
        let workspace = try Workspace()
        let repository = workspace.repository
        let shared = try repository.importReceipt(data: Samples.jpeg, suggestedName: "s.jpg").reference
        let first = try repository.createTrip(lisbonTrip())
        let second = try repository.createTrip(TripDetails(name: "Porto", startDate: day("2024-04-01"),
                                                           endDate: day("2024-04-02"), currency: .eur))
        try repository.addExpense(meal(eur(100), receipt: shared), to: first.id)
        try repository.addExpense(meal(eur(200), on: "2024-04-01", receipt: shared), to: second.id)

        let firstDeletion = try repository.deleteTrip(first.id)
        let secondDeletion = try repository.deleteTrip(second.id)
        try repository.purgeDeletedReceipts(firstDeletion)
        #expect(workspace.isStored(shared))   // the second deletion can still be undone
        try repository.restore(secondDeletion)
        #expect(try repository.expenses(in: second.id).first?.receipt == shared)
        #expect(workspace.repository.receiptStatus(shared) != .missing)
    }

    @Test func purgingAtStartUpRemovesEveryUnusedReceipt() throws {
        let workspace = try Workspace()
        let repository = workspace.repository
        let trip = try repository.createTrip(lisbonTrip())
        let kept = try repository.importReceipt(data: Samples.jpeg, suggestedName: "kept.jpg").reference
        _ = try repository.importReceipt(data: Samples.pdf, suggestedName: "never saved.pdf")   // a form never saved
        let deletedTripReceipt = try repository.importReceipt(data: Samples.png, suggestedName: "gone.png").reference
        try repository.addExpense(meal(eur(100), receipt: kept), to: trip.id)
        let other = try repository.createTrip(TripDetails(name: "Porto", startDate: day("2024-04-01"),
                                                          endDate: day("2024-04-02"), currency: .eur))
        try repository.addExpense(meal(eur(100), on: "2024-04-01", receipt: deletedTripReceipt), to: other.id)
        let deletion = try repository.deleteTrip(other.id)

        try repository.purgeDeletedReceipts()
        #expect(workspace.store.storedReferences() == [kept])
        // Undo after the window closed still brings the trip back; its receipt is reported missing.
        try repository.restore(deletion)
        #expect(repository.receiptStatus(deletedTripReceipt) == .missing)
        #expect(try repository.expenses(in: other.id).count == 1)
    }

    @Test func restoringIsRefusedWhenTheNameWasTakenMeanwhile() throws {
        let repository = try Workspace().repository
        let trip = try repository.createTrip(lisbonTrip())
        let deletion = try repository.deleteTrip(trip.id)
        _ = try repository.createTrip(lisbonTrip())
        #expect(throws: ExpensesError.duplicateTripName(trip.name)) { try repository.restore(deletion) }
    }
}
