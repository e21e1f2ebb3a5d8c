print("Billfold")
